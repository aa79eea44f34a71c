// controllers/cluster: the node as a member of its cluster; today its identity, kept on STATE.
export * from './node-identity.js';
