// rtnetlink's numbers, generated from the kernel's UAPI headers (linux/netlink.h, rtnetlink.h, if_link.h,
// if_addr.h, if.h, veth.h, if_ether.h) by a C program printing each macro and enum value, then checked in.
// The values are ABI: the same on every architecture.

// netlink socket options (SOL_NETLINK) and the protocol
export const NETLINK_ROUTE = 0;
export const SOL_NETLINK = 270;
export const NETLINK_ADD_MEMBERSHIP = 1;
export const NETLINK_DROP_MEMBERSHIP = 2;
export const NETLINK_NO_ENOBUFS = 5;
export const NETLINK_CAP_ACK = 10;
export const NETLINK_EXT_ACK = 11;
export const NETLINK_GET_STRICT_CHK = 12;

// message types below NLMSG_MIN_TYPE
export const NLMSG_NOOP = 1;
export const NLMSG_ERROR = 2;
export const NLMSG_DONE = 3;
export const NLMSG_OVERRUN = 4;
export const NLMSG_MIN_TYPE = 16;
export const NLMSG_HDRLEN = 16;
export const NLMSG_ALIGNTO = 4;

// nlmsghdr flags
export const NLM_F_REQUEST = 0x1;
export const NLM_F_MULTI = 0x2;
export const NLM_F_ACK = 0x4;
export const NLM_F_ECHO = 0x8;
export const NLM_F_DUMP_INTR = 0x10;
export const NLM_F_DUMP_FILTERED = 0x20;
export const NLM_F_ROOT = 0x100;
export const NLM_F_MATCH = 0x200;
export const NLM_F_ATOMIC = 0x400;
export const NLM_F_DUMP = 0x300;
export const NLM_F_REPLACE = 0x100;
export const NLM_F_EXCL = 0x200;
export const NLM_F_CREATE = 0x400;
export const NLM_F_APPEND = 0x800;
export const NLM_F_NONREC = 0x100;
export const NLM_F_BULK = 0x200;
export const NLM_F_CAPPED = 0x100;
export const NLM_F_ACK_TLVS = 0x200;

// extended ack attributes of NLMSG_ERROR / NLMSG_DONE
export const NLMSGERR_ATTR_MSG = 1;
export const NLMSGERR_ATTR_OFFS = 2;
export const NLMSGERR_ATTR_COOKIE = 3;
export const NLMSGERR_ATTR_POLICY = 4;
export const NLMSGERR_ATTR_MISS_TYPE = 5;
export const NLMSGERR_ATTR_MISS_NEST = 6;

// attribute header flags
export const NLA_F_NESTED = 0x8000;
export const NLA_F_NET_BYTEORDER = 0x4000;
export const NLA_TYPE_MASK = 0x3fff;
export const NLA_HDRLEN = 4;

// rtnetlink message types
export const RTM_NEWLINK = 16;
export const RTM_DELLINK = 17;
export const RTM_GETLINK = 18;
export const RTM_SETLINK = 19;
export const RTM_NEWADDR = 20;
export const RTM_DELADDR = 21;
export const RTM_GETADDR = 22;
export const RTM_NEWROUTE = 24;
export const RTM_DELROUTE = 25;
export const RTM_GETROUTE = 26;
export const RTM_NEWNEIGH = 28;
export const RTM_DELNEIGH = 29;
export const RTM_GETNEIGH = 30;
export const RTM_NEWRULE = 32;
export const RTM_DELRULE = 33;
export const RTM_GETRULE = 34;

// legacy multicast group bits (sockaddr_nl.nl_groups)
export const RTMGRP_LINK = 0x1;
export const RTMGRP_NOTIFY = 0x2;
export const RTMGRP_NEIGH = 0x4;
export const RTMGRP_TC = 0x8;
export const RTMGRP_IPV4_IFADDR = 0x10;
export const RTMGRP_IPV4_MROUTE = 0x20;
export const RTMGRP_IPV4_ROUTE = 0x40;
export const RTMGRP_IPV4_RULE = 0x80;
export const RTMGRP_IPV6_IFADDR = 0x100;
export const RTMGRP_IPV6_MROUTE = 0x200;
export const RTMGRP_IPV6_ROUTE = 0x400;
export const RTMGRP_IPV6_IFINFO = 0x800;

// multicast groups (NETLINK_ADD_MEMBERSHIP)
export const RTNLGRP_LINK = 1;
export const RTNLGRP_NOTIFY = 2;
export const RTNLGRP_NEIGH = 3;
export const RTNLGRP_TC = 4;
export const RTNLGRP_IPV4_IFADDR = 5;
export const RTNLGRP_IPV4_MROUTE = 6;
export const RTNLGRP_IPV4_ROUTE = 7;
export const RTNLGRP_IPV4_RULE = 8;
export const RTNLGRP_IPV6_IFADDR = 9;
export const RTNLGRP_IPV6_MROUTE = 10;
export const RTNLGRP_IPV6_ROUTE = 11;
export const RTNLGRP_IPV6_IFINFO = 12;
export const RTNLGRP_IPV6_PREFIX = 18;
export const RTNLGRP_IPV6_RULE = 19;
export const RTNLGRP_ND_USEROPT = 20;
export const RTNLGRP_NSID = 28;

// interface flags (ifi_flags)
export const IFF_UP = 0x1;
export const IFF_BROADCAST = 0x2;
export const IFF_DEBUG = 0x4;
export const IFF_LOOPBACK = 0x8;
export const IFF_POINTOPOINT = 0x10;
export const IFF_NOTRAILERS = 0x20;
export const IFF_RUNNING = 0x40;
export const IFF_NOARP = 0x80;
export const IFF_PROMISC = 0x100;
export const IFF_ALLMULTI = 0x200;
export const IFF_MASTER = 0x400;
export const IFF_SLAVE = 0x800;
export const IFF_MULTICAST = 0x1000;
export const IFF_PORTSEL = 0x2000;
export const IFF_AUTOMEDIA = 0x4000;
export const IFF_DYNAMIC = 0x8000;
export const IFF_LOWER_UP = 0x10000;
export const IFF_DORMANT = 0x20000;
export const IFF_ECHO = 0x40000;

// link attributes (ifinfomsg)
export const IFLA_ADDRESS = 1;
export const IFLA_BROADCAST = 2;
export const IFLA_IFNAME = 3;
export const IFLA_MTU = 4;
export const IFLA_LINK = 5;
export const IFLA_QDISC = 6;
export const IFLA_STATS = 7;
export const IFLA_MASTER = 10;
export const IFLA_TXQLEN = 13;
export const IFLA_OPERSTATE = 16;
export const IFLA_LINKMODE = 17;
export const IFLA_LINKINFO = 18;
export const IFLA_NET_NS_PID = 19;
export const IFLA_IFALIAS = 20;
export const IFLA_STATS64 = 23;
export const IFLA_AF_SPEC = 26;
export const IFLA_GROUP = 27;
export const IFLA_NET_NS_FD = 28;
export const IFLA_EXT_MASK = 29;
export const IFLA_PROMISCUITY = 30;
export const IFLA_NUM_TX_QUEUES = 31;
export const IFLA_NUM_RX_QUEUES = 32;
export const IFLA_CARRIER = 33;
export const IFLA_CARRIER_CHANGES = 35;
export const IFLA_LINK_NETNSID = 37;
export const IFLA_PROTO_DOWN = 39;
export const IFLA_GSO_MAX_SEGS = 40;
export const IFLA_GSO_MAX_SIZE = 41;
export const IFLA_MIN_MTU = 50;
export const IFLA_MAX_MTU = 51;
export const IFLA_PROP_LIST = 52;
export const IFLA_ALT_IFNAME = 53;
export const IFLA_PERM_ADDRESS = 54;
export const IFLA_PARENT_DEV_NAME = 56;
export const IFLA_PARENT_DEV_BUS_NAME = 57;

// IFLA_LINKINFO nest
export const IFLA_INFO_KIND = 1;
export const IFLA_INFO_DATA = 2;
export const IFLA_INFO_XSTATS = 3;
export const IFLA_INFO_SLAVE_KIND = 4;
export const IFLA_INFO_SLAVE_DATA = 5;

// operational states (IFLA_OPERSTATE, RFC 2863)
export const IF_OPER_UNKNOWN = 0;
export const IF_OPER_NOTPRESENT = 1;
export const IF_OPER_DOWN = 2;
export const IF_OPER_LOWERLAYERDOWN = 3;
export const IF_OPER_TESTING = 4;
export const IF_OPER_DORMANT = 5;
export const IF_OPER_UP = 6;

// vlan (IFLA_INFO_DATA of kind vlan)
export const IFLA_VLAN_ID = 1;
export const IFLA_VLAN_FLAGS = 2;
export const IFLA_VLAN_EGRESS_QOS = 3;
export const IFLA_VLAN_INGRESS_QOS = 4;
export const IFLA_VLAN_PROTOCOL = 5;
export const ETH_P_8021Q = 0x8100;
export const ETH_P_8021AD = 0x88a8;

// bond (IFLA_INFO_DATA of kind bond)
export const IFLA_BOND_MODE = 1;
export const IFLA_BOND_ACTIVE_SLAVE = 2;
export const IFLA_BOND_MIIMON = 3;
export const IFLA_BOND_UPDELAY = 4;
export const IFLA_BOND_DOWNDELAY = 5;
export const IFLA_BOND_USE_CARRIER = 6;
export const IFLA_BOND_ARP_INTERVAL = 7;
export const IFLA_BOND_ARP_IP_TARGET = 8;
export const IFLA_BOND_ARP_VALIDATE = 9;
export const IFLA_BOND_ARP_ALL_TARGETS = 10;
export const IFLA_BOND_PRIMARY = 11;
export const IFLA_BOND_PRIMARY_RESELECT = 12;
export const IFLA_BOND_FAIL_OVER_MAC = 13;
export const IFLA_BOND_XMIT_HASH_POLICY = 14;
export const IFLA_BOND_RESEND_IGMP = 15;
export const IFLA_BOND_NUM_PEER_NOTIF = 16;
export const IFLA_BOND_ALL_SLAVES_ACTIVE = 17;
export const IFLA_BOND_MIN_LINKS = 18;
export const IFLA_BOND_LP_INTERVAL = 19;
export const IFLA_BOND_PACKETS_PER_SLAVE = 20;
export const IFLA_BOND_AD_LACP_RATE = 21;
export const IFLA_BOND_AD_SELECT = 22;
export const IFLA_BOND_AD_INFO = 23;
export const IFLA_BOND_AD_ACTOR_SYS_PRIO = 24;
export const IFLA_BOND_AD_USER_PORT_KEY = 25;
export const IFLA_BOND_AD_ACTOR_SYSTEM = 26;
export const IFLA_BOND_TLB_DYNAMIC_LB = 27;
export const IFLA_BOND_PEER_NOTIF_DELAY = 28;
export const IFLA_BOND_AD_LACP_ACTIVE = 29;
export const IFLA_BOND_MISSED_MAX = 30;
export const IFLA_BOND_NS_IP6_TARGET = 31;

// bridge (IFLA_INFO_DATA of kind bridge)
export const IFLA_BR_FORWARD_DELAY = 1;
export const IFLA_BR_HELLO_TIME = 2;
export const IFLA_BR_MAX_AGE = 3;
export const IFLA_BR_AGEING_TIME = 4;
export const IFLA_BR_STP_STATE = 5;
export const IFLA_BR_PRIORITY = 6;
export const IFLA_BR_VLAN_FILTERING = 7;
export const IFLA_BR_VLAN_PROTOCOL = 8;
export const IFLA_BR_VLAN_DEFAULT_PVID = 39;

// veth (IFLA_INFO_DATA of kind veth: an ifinfomsg and link attributes for the peer)
export const VETH_INFO_PEER = 1;

// address attributes (ifaddrmsg)
export const IFA_ADDRESS = 1;
export const IFA_LOCAL = 2;
export const IFA_LABEL = 3;
export const IFA_BROADCAST = 4;
export const IFA_ANYCAST = 5;
export const IFA_CACHEINFO = 6;
export const IFA_MULTICAST = 7;
export const IFA_FLAGS = 8;
export const IFA_RT_PRIORITY = 9;
export const IFA_PROTO = 11;

// address flags (ifa_flags, IFA_FLAGS)
export const IFA_F_SECONDARY = 0x1;
export const IFA_F_TEMPORARY = 0x1;
export const IFA_F_NODAD = 0x2;
export const IFA_F_OPTIMISTIC = 0x4;
export const IFA_F_DADFAILED = 0x8;
export const IFA_F_HOMEADDRESS = 0x10;
export const IFA_F_DEPRECATED = 0x20;
export const IFA_F_TENTATIVE = 0x40;
export const IFA_F_PERMANENT = 0x80;
export const IFA_F_MANAGETEMPADDR = 0x100;
export const IFA_F_NOPREFIXROUTE = 0x200;
export const IFA_F_MCAUTOJOIN = 0x400;
export const IFA_F_STABLE_PRIVACY = 0x800;

// route attributes (rtmsg)
export const RTA_DST = 1;
export const RTA_SRC = 2;
export const RTA_IIF = 3;
export const RTA_OIF = 4;
export const RTA_GATEWAY = 5;
export const RTA_PRIORITY = 6;
export const RTA_PREFSRC = 7;
export const RTA_METRICS = 8;
export const RTA_MULTIPATH = 9;
export const RTA_FLOW = 11;
export const RTA_CACHEINFO = 12;
export const RTA_TABLE = 15;
export const RTA_MARK = 16;
export const RTA_MFC_STATS = 17;
export const RTA_VIA = 18;
export const RTA_NEWDST = 19;
export const RTA_PREF = 20;
export const RTA_ENCAP_TYPE = 21;
export const RTA_ENCAP = 22;
export const RTA_EXPIRES = 23;
export const RTA_PAD = 24;
export const RTA_UID = 25;
export const RTA_TTL_PROPAGATE = 26;
export const RTA_IP_PROTO = 27;
export const RTA_SPORT = 28;
export const RTA_DPORT = 29;
export const RTA_NH_ID = 30;

// route metrics (nested in RTA_METRICS)
export const RTAX_LOCK = 1;
export const RTAX_MTU = 2;
export const RTAX_WINDOW = 3;
export const RTAX_RTT = 4;
export const RTAX_RTTVAR = 5;
export const RTAX_SSTHRESH = 6;
export const RTAX_CWND = 7;
export const RTAX_ADVMSS = 8;
export const RTAX_REORDERING = 9;
export const RTAX_HOPLIMIT = 10;
export const RTAX_INITCWND = 11;
export const RTAX_FEATURES = 12;
export const RTAX_RTO_MIN = 13;
export const RTAX_INITRWND = 14;
export const RTAX_QUICKACK = 15;
export const RTAX_CC_ALGO = 16;
export const RTAX_FASTOPEN_NO_COOKIE = 17;

// route tables
export const RT_TABLE_UNSPEC = 0;
export const RT_TABLE_COMPAT = 252;
export const RT_TABLE_DEFAULT = 253;
export const RT_TABLE_MAIN = 254;
export const RT_TABLE_LOCAL = 255;

// route scopes
export const RT_SCOPE_UNIVERSE = 0;
export const RT_SCOPE_SITE = 200;
export const RT_SCOPE_LINK = 253;
export const RT_SCOPE_HOST = 254;
export const RT_SCOPE_NOWHERE = 255;

// route protocols
export const RTPROT_UNSPEC = 0;
export const RTPROT_REDIRECT = 1;
export const RTPROT_KERNEL = 2;
export const RTPROT_BOOT = 3;
export const RTPROT_STATIC = 4;
export const RTPROT_RA = 9;
export const RTPROT_DHCP = 16;
export const RTPROT_BGP = 186;
export const RTPROT_OSPF = 188;

// route types
export const RTN_UNSPEC = 0;
export const RTN_UNICAST = 1;
export const RTN_LOCAL = 2;
export const RTN_BROADCAST = 3;
export const RTN_ANYCAST = 4;
export const RTN_MULTICAST = 5;
export const RTN_BLACKHOLE = 6;
export const RTN_UNREACHABLE = 7;
export const RTN_PROHIBIT = 8;
export const RTN_THROW = 9;
export const RTN_NAT = 10;
export const RTN_XRESOLVE = 11;

// rtm_flags / nexthop flags
export const RTM_F_NOTIFY = 0x100;
export const RTM_F_CLONED = 0x200;
export const RTM_F_EQUALIZE = 0x400;
export const RTM_F_PREFIX = 0x800;
export const RTNH_F_DEAD = 0x1;
export const RTNH_F_PERVASIVE = 0x2;
export const RTNH_F_ONLINK = 0x4;
export const RTNH_F_OFFLOAD = 0x8;
export const RTNH_F_LINKDOWN = 0x10;

// struct sizes
export const SIZEOF_NLMSGHDR = 16;
export const SIZEOF_NLMSGERR = 20;
export const SIZEOF_IFINFOMSG = 16;
export const SIZEOF_IFADDRMSG = 8;
export const SIZEOF_RTMSG = 12;
export const SIZEOF_IFA_CACHEINFO = 16;
export const SIZEOF_SOCKADDR_NL = 12;

// IFLA_EXT_MASK filters (RTM_GETLINK)
export const RTEXT_FILTER_VF = 0x1;
export const RTEXT_FILTER_BRVLAN = 0x2;
export const RTEXT_FILTER_SKIP_STATS = 0x8;
