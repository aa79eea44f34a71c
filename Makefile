# Keel — build, test and benchmark entry points. `make test` and (later) `make run` are all a newcomer needs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_MODULES_STAMP := node_modules/.keel-installed

.PHONY: help setup host talosctl kubectl components kubernetes test lint typecheck unit bench bench-boot format cosi-server container-node image run start-trace

help:
	@echo "make run     build what is missing and boot a node from the ISO in QEMU [CONFIG=file|gen] [PORT=50000] [K8S_PORT=6443] [DISK=file]"
	@echo "make test    format/lint check, typecheck, the images and every test (QEMU boots included)"
	@echo "make image   kernel, squashfs root, initramfs, UKI, ISO and raw disk image under _out/"
	@echo "make bench   benchmarks, printing figures (bench-boot: the QEMU boot timeline and image sizes)"
	@echo "make start-trace   record the order machined's start reads its executable in (root, perf): orders the read-ahead"
	@echo "make format  rewrite sources in the house format"
	@echo "make cosi-server [LISTEN=tcp://127.0.0.1:8100]   standalone cosi.resource.State server"
	@echo "make container-node STATE=dir [ADDR=127.0.0.1:50000] [TRUSTD=host:port] [CONFIG=file] [COMPONENTS_DIR=dir] [KUBERNETES_DIR=dir]   machined as a process (container mode)"

NEED_NODE := command -v node >/dev/null || { echo "node (20.x) is required: apt-get install nodejs npm" >&2; exit 1; }

# npm packages come from the lock file; reinstalled only when it changes. Dependencies' install scripts
# stay unrun (package.json's allowScripts says so for each).
$(NODE_MODULES_STAMP): package.json package-lock.json
	@$(NEED_NODE)
	npm ci --no-audit --no-fund
	@touch $@

setup: $(NODE_MODULES_STAMP)

# Debian packages for building the kernel and images and for QEMU; only missing ones are installed, and
# nothing already installed is upgraded.
HOST_STAMP := _out/.host-packages
$(HOST_STAMP): scripts/host-packages.sh
	scripts/host-packages.sh kernel image qemu net block components
	@mkdir -p $(@D) && touch $@

host: $(HOST_STAMP)

lint: setup
	npx biome check --error-on-warnings .

typecheck: setup
	npx tsc --noEmit

# the stock talosctl, built from its Go module and cached outside the work tree: the judge of wire
# compatibility in the tests (test/integration/talosctl); _out/talosctl links to the cached binary
TALOSCTL := _out/talosctl
talosctl: $(TALOSCTL)
$(TALOSCTL): scripts/talosctl.sh
	@mkdir -p $(@D)
	ln -sfn "$$(scripts/talosctl.sh)" $@

# kubectl, built with the Kubernetes component (the same module and version as the node's) and cached
# outside the work tree; _out/kubectl links to it
KUBECTL := _out/kubectl
kubectl: $(KUBECTL)
$(KUBECTL): $(NODE_MODULES_STAMP) images/components.yaml scripts/components.ts
	@mkdir -p $(@D)
	ln -sfn "$$(node --import tsx scripts/components.ts kubernetes)/kubectl" $@

unit: setup $(TALOSCTL)
	node scripts/test.mjs

test: lint typecheck image unit

bench: setup image
	node --expose-gc --import tsx test/bench/run.ts $(BENCH)

bench-boot: setup image
	node --expose-gc --import tsx test/bench/run.ts image/

format: setup
	npx biome check --write .

LISTEN ?= tcp://127.0.0.1:8100
cosi-server: setup
	node --import tsx src/cosi/cmd/runtime.ts --listen $(LISTEN)

# container mode: machined as an ordinary process, its config kept in $(STATE)/config.yaml; the layers, if
# given, as directories laid out as they are (an unpacked components.sqsh, kubernetes.sqsh)
STATE ?=
ADDR ?= 127.0.0.1:50000
CONFIG ?=
COMPONENTS_DIR ?=
KUBERNETES_DIR ?=
container-node: setup
	@test -n "$(STATE)" || { echo "usage: make container-node STATE=dir [ADDR=host:port] [TRUSTD=host:port] [CONFIG=file] [COMPONENTS_DIR=dir] [KUBERNETES_DIR=dir]" >&2; exit 2; }
	node --import tsx src/machined/container-entry.ts --state-dir $(STATE) --api-address $(ADDR)$(if $(TRUSTD), --trustd-address $(TRUSTD)) $(if $(CONFIG),--config $(CONFIG))$(if $(COMPONENTS_DIR), --components $(COMPONENTS_DIR))$(if $(KUBERNETES_DIR), --kubernetes $(KUBERNETES_DIR))

# --- the image -------------------------------------------------------------------------------------------
# Every artefact is a file under _out/ rebuilt only when its inputs change. The kernel itself is cached
# outside the work tree by scripts/kernel.sh, keyed by (source version, config hash).
OUT := _out
VERSION := v$(shell node -p 'require("./package.json").version')
TS_SOURCES := $(shell find src resources controllers -name '*.ts' -o -name '*.proto') package-lock.json
KERNEL := $(OUT)/vmlinuz
SEA := $(OUT)/sea/machined
INIT := $(OUT)/init/stage1
PREFAULT := $(OUT)/init/prefault.so
ROOTFS := $(OUT)/rootfs.sqsh
INITRAMFS := $(OUT)/initramfs.img
OSREL := $(OUT)/os-release
UKI := $(OUT)/keel.efi
ISO := $(OUT)/keel.iso
DISK := $(OUT)/keel.raw
COMPONENTS := $(OUT)/components.sqsh
KUBERNETES := $(OUT)/kubernetes.sqsh

image: $(KERNEL) $(INITRAMFS) $(UKI) $(ISO) $(DISK) $(OUT)/floor.img $(COMPONENTS) $(KUBERNETES)

$(KERNEL): $(HOST_STAMP) $(wildcard kernel-config/*) scripts/kernel.sh scripts/kernel-config-check.mjs
	@mkdir -p $(@D)
	cp "$$(scripts/kernel.sh)" $@.tmp && mv $@.tmp $@

$(SEA): $(NODE_MODULES_STAMP) $(TS_SOURCES) scripts/sea.ts $(wildcard scripts/sea/*) scripts/rootfs/elf.ts $(wildcard scripts/rootfs/icu-*.ts)
	node --import tsx scripts/sea.ts $(OUT)/sea

$(INIT) $(OUT)/init/floor $(PREFAULT) &: $(HOST_STAMP) src/init/stage1.c src/init/floor.c src/init/prefault.c scripts/init.sh
	scripts/init.sh $(OUT)/init

$(ROOTFS): $(SEA) $(PREFAULT) $(HOST_STAMP) images/rootfs.yaml images/os-release.in scripts/rootfs.ts $(wildcard scripts/rootfs/*.ts) $(wildcard images/start-trace/*.trace)
	node --import tsx scripts/rootfs.ts --sea $(OUT)/sea --prefault $(PREFAULT) --out $@ --version $(VERSION)

$(INITRAMFS): $(INIT) $(ROOTFS) scripts/initramfs.sh
	scripts/initramfs.sh $@ $(INIT) $(ROOTFS)=/rootfs.sqsh

# start-trace: records the order in which machined's start touches its executable (root and perf needed),
# for the read-ahead of images built with this node; commit the new images/start-trace/<build id>.trace
start-trace: setup $(SEA)
	scripts/host-packages.sh trace
	node --import tsx scripts/start-trace.ts --sea $(OUT)/sea --out images/start-trace

# the boot benchmark's floor: the same kernel with an init that powers off at once
$(OUT)/floor.img: $(OUT)/init/floor scripts/initramfs.sh
	scripts/initramfs.sh $@ $(OUT)/init/floor

$(OSREL): images/os-release.in package.json
	@mkdir -p $(@D)
	sed 's/@VERSION@/$(VERSION)/g' $< > $@

$(UKI): $(KERNEL) $(INITRAMFS) $(OSREL) images/cmdline scripts/uki.sh scripts/lib/cmdline.sh
	scripts/uki.sh $@ $(KERNEL) $(INITRAMFS) $(OSREL) images/cmdline

# the ISO carries the install assets too (/keel/install: the UKI, systemd-boot, GRUB's BIOS images) and
# the layers (/keel/components.sqsh, /keel/kubernetes.sqsh), which a node mounts from it and an install copies
$(ISO): $(KERNEL) $(INITRAMFS) $(UKI) $(COMPONENTS) $(KUBERNETES) images/cmdline images/grub.cfg scripts/iso.sh scripts/grub-bios.sh scripts/lib/cmdline.sh
	scripts/iso.sh $@ $(KERNEL) $(INITRAMFS) $(UKI) $(COMPONENTS) $(KUBERNETES)

$(DISK): $(UKI) scripts/disk.sh
	scripts/disk.sh $@ $(UKI)

# the extension layer: etcd, containerd, runc and the CNI plugins, each built from its Go module with the
# host's Go and cached outside the work tree by (manifest entry, Go version, build code); not in the
# initramfs. A new Go or C library alone does not remake it (the cache keys would): remove it first.
components: $(COMPONENTS)
$(COMPONENTS): $(NODE_MODULES_STAMP) $(HOST_STAMP) images/components.yaml scripts/components.ts $(wildcard scripts/components/*.ts) scripts/rootfs/elf.ts
	node --import tsx scripts/components.ts --layer $@

# Kubernetes' layer: the kubelet and the images of pause and the control plane (OCI archives), built from
# k8s.io/kubernetes and cached as the components are; about 10 min cold on 2 cores, 3 min from the cache
# (mksquashfs). A node mounts it at /run/keel/kubernetes, beside the components layer.
kubernetes: $(KUBERNETES)
$(KUBERNETES): $(NODE_MODULES_STAMP) $(HOST_STAMP) images/components.yaml scripts/components.ts $(wildcard scripts/components/*.ts) scripts/rootfs/elf.ts src/sys/fs/tar.ts
	node --import tsx scripts/components.ts --layer $@ --layer-name kubernetes

# make run: boots the ISO with the API on 127.0.0.1:$(PORT). CONFIG=file applies that config once the
# node is in maintenance mode; CONFIG=gen generates a single-node config (and a talosconfig) in _out/run.
# The port is checked before anything is built (a sub-make builds, so no -j runs the two side by side):
# a busy one fails at once, not when QEMU refuses it after a long build.
PORT ?= 50000
K8S_PORT ?= 6443
run:
	@$(NEED_NODE)
	@node scripts/lib/port-free.mjs $(PORT)
	@node scripts/lib/port-free.mjs $(K8S_PORT) K8S_PORT
	@$(MAKE) --no-print-directory setup image
	node --import tsx scripts/run.ts --iso $(ISO) --port $(PORT) --k8s-port $(K8S_PORT) $(if $(CONFIG),--config $(CONFIG)) $(if $(DISK),--disk $(DISK))
