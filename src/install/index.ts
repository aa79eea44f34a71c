// src/install: installing Keel to a disk: the layout as a pure plan (boot partitions in upstream's order),
// and the mechanisms that write it: GPT, systemd-boot with the UKI slots, GRUB's BIOS boot with slots A/B.
export * from './components.js';
export * from './disk.js';
export * from './errors.js';
export * from './file-tree.js';
export * from './grub.js';
export * from './install.js';
export * from './layout.js';
export * from './sd-boot.js';
