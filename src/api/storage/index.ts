// src/api/storage: storage.StorageService handlers.
// Disks reads /sys/block; BlockDeviceWipe waits for the block controllers.
export { diskMessage, disksHandler } from './disks.js';
