# Keel — build, test and benchmark entry points. `make test` and (later) `make run` are all a newcomer needs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_MODULES_STAMP := node_modules/.keel-installed

.PHONY: help setup test lint typecheck unit bench format cosi-server container-node

help:
	@echo "make test    format/lint check, typecheck and every test"
	@echo "make bench   benchmarks, printing figures"
	@echo "make format  rewrite sources in the house format"
	@echo "make cosi-server [LISTEN=tcp://127.0.0.1:8100]   standalone cosi.resource.State server"
	@echo "make container-node STATE=dir [ADDR=127.0.0.1:50000] [CONFIG=file]   machined as a process (container mode)"

# npm packages come from the lock file; reinstalled only when it changes.
$(NODE_MODULES_STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "node (20.x) is required: apt-get install nodejs npm" >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

setup: $(NODE_MODULES_STAMP)

lint: setup
	npx biome check --error-on-warnings .

typecheck: setup
	npx tsc --noEmit

unit: setup
	node scripts/test.mjs

test: lint typecheck unit

bench: setup
	node --expose-gc --import tsx test/bench/run.ts $(BENCH)

format: setup
	npx biome check --write .

LISTEN ?= tcp://127.0.0.1:8100
cosi-server: setup
	node --import tsx src/cosi/cmd/runtime.ts --listen $(LISTEN)

# container mode: machined as an ordinary process, its config kept in $(STATE)/config.yaml
STATE ?=
ADDR ?= 127.0.0.1:50000
CONFIG ?=
container-node: setup
	@test -n "$(STATE)" || { echo "usage: make container-node STATE=dir [ADDR=host:port] [CONFIG=file]" >&2; exit 2; }
	node --import tsx src/machined/container-entry.ts --state-dir $(STATE) --api-address $(ADDR) $(if $(CONFIG),--config $(CONFIG))
