// The byte vectors of ../codec.test.ts: cc -o /tmp/v vectors.c && /tmp/v
// Byte vectors built with the kernel UAPI headers' structs and macros, the way iproute2 builds them.
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
#include <linux/if_addr.h>
#include <linux/veth.h>
#include <linux/if_ether.h>
static unsigned char buf[4096];
static struct nlmsghdr *start(int type, int flags, int seq, const void *fixed, int flen) {
  memset(buf, 0, sizeof buf); struct nlmsghdr *n = (void*)buf;
  n->nlmsg_len = NLMSG_LENGTH(flen); n->nlmsg_type = type; n->nlmsg_flags = flags; n->nlmsg_seq = seq; n->nlmsg_pid = 0;
  memcpy(NLMSG_DATA(n), fixed, flen); return n; }
static struct rtattr *add(struct nlmsghdr *n, int type, const void *d, int len) {
  struct rtattr *r = (void*)((char*)n + NLMSG_ALIGN(n->nlmsg_len));
  r->rta_type = type; r->rta_len = RTA_LENGTH(len); if (len) memcpy(RTA_DATA(r), d, len);
  n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(r->rta_len); return r; }
static void u32(struct nlmsghdr *n, int t, unsigned v){ add(n,t,&v,4); }
static void u16(struct nlmsghdr *n, int t, unsigned short v){ add(n,t,&v,2); }
static void u8(struct nlmsghdr *n, int t, unsigned char v){ add(n,t,&v,1); }
static void str(struct nlmsghdr *n, int t, const char *s){ add(n,t,s,strlen(s)+1); }
static struct rtattr *nest(struct nlmsghdr *n, int t){ return add(n, t | NLA_F_NESTED, 0, 0); }
static void end(struct nlmsghdr *n, struct rtattr *r){ r->rta_len = (char*)n + n->nlmsg_len - (char*)r; }
static void ip4(struct nlmsghdr *n, int t, const char *s){ struct in_addr a; inet_pton(AF_INET, s, &a); add(n,t,&a,4); }
static void ip6(struct nlmsghdr *n, int t, const char *s){ struct in6_addr a; inet_pton(AF_INET6, s, &a); add(n,t,&a,16); }
static void dump(const char *name, struct nlmsghdr *n){ printf("%s ", name); for (unsigned i=0;i<n->nlmsg_len;i++) printf("%02x", buf[i]); printf("\n"); }
int main(void){
  struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
  struct nlmsghdr *n; struct rtattr *li, *d, *p;
  // 1. dummy0, mtu 1400, up
  ifi.ifi_flags = 1; ifi.ifi_change = 1;
  n = start(RTM_NEWLINK, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 1, &ifi, sizeof ifi);
  str(n, IFLA_IFNAME, "dummy0"); u32(n, IFLA_MTU, 1400);
  li = nest(n, IFLA_LINKINFO); str(n, IFLA_INFO_KIND, "dummy"); end(n, li);
  dump("dummy", n);
  // 2. vlan v10 on ifindex 2, id 10, 802.1Q
  memset(&ifi,0,sizeof ifi);
  n = start(RTM_NEWLINK, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 2, &ifi, sizeof ifi);
  str(n, IFLA_IFNAME, "v10"); u32(n, IFLA_LINK, 2);
  li = nest(n, IFLA_LINKINFO); str(n, IFLA_INFO_KIND, "vlan");
  d = nest(n, IFLA_INFO_DATA); u16(n, IFLA_VLAN_ID, 10); u16(n, IFLA_VLAN_PROTOCOL, htons(ETH_P_8021Q)); end(n, d); end(n, li);
  dump("vlan", n);
  // 3. bond0: 802.3ad, miimon 100, updelay 200, downdelay 200, layer3+4, lacp fast, arp target
  n = start(RTM_NEWLINK, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 3, &ifi, sizeof ifi);
  str(n, IFLA_IFNAME, "bond0");
  li = nest(n, IFLA_LINKINFO); str(n, IFLA_INFO_KIND, "bond");
  d = nest(n, IFLA_INFO_DATA); u8(n, IFLA_BOND_MODE, 4); u32(n, IFLA_BOND_MIIMON, 100); u32(n, IFLA_BOND_UPDELAY, 200); u32(n, IFLA_BOND_DOWNDELAY, 200);
  u8(n, IFLA_BOND_XMIT_HASH_POLICY, 1); u8(n, IFLA_BOND_AD_LACP_RATE, 1);
  p = nest(n, IFLA_BOND_ARP_IP_TARGET); ip4(n, 0, "192.0.2.9"); end(n, p);
  end(n, d); end(n, li);
  dump("bond", n);
  // 4. bridge br0: stp on, vlan filtering on
  n = start(RTM_NEWLINK, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 4, &ifi, sizeof ifi);
  str(n, IFLA_IFNAME, "br0");
  li = nest(n, IFLA_LINKINFO); str(n, IFLA_INFO_KIND, "bridge");
  d = nest(n, IFLA_INFO_DATA); u32(n, IFLA_BR_STP_STATE, 1); u8(n, IFLA_BR_VLAN_FILTERING, 1); end(n, d); end(n, li);
  dump("bridge", n);
  // 5. veth ve0 with peer ve1 (the peer's ifinfomsg, then its attributes, inside VETH_INFO_PEER)
  n = start(RTM_NEWLINK, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 5, &ifi, sizeof ifi);
  str(n, IFLA_IFNAME, "ve0");
  li = nest(n, IFLA_LINKINFO); str(n, IFLA_INFO_KIND, "veth");
  d = nest(n, IFLA_INFO_DATA); p = nest(n, VETH_INFO_PEER);
  { struct ifinfomsg pi = {0}; memcpy((char*)n + n->nlmsg_len, &pi, sizeof pi); n->nlmsg_len += sizeof pi; }
  str(n, IFLA_IFNAME, "ve1"); end(n, p); end(n, d); end(n, li);
  dump("veth", n);
  // 6. address 192.0.2.1/24 brd 192.0.2.255 label eth0:1 on ifindex 3, permanent
  struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 24, .ifa_flags = IFA_F_PERMANENT, .ifa_scope = RT_SCOPE_UNIVERSE, .ifa_index = 3 };
  n = start(RTM_NEWADDR, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 6, &ifa, sizeof ifa);
  ip4(n, IFA_LOCAL, "192.0.2.1"); ip4(n, IFA_ADDRESS, "192.0.2.1"); ip4(n, IFA_BROADCAST, "192.0.2.255");
  str(n, IFA_LABEL, "eth0:1"); u32(n, IFA_FLAGS, IFA_F_PERMANENT);
  { struct ifa_cacheinfo ci = { .ifa_prefered = 0xffffffff, .ifa_valid = 0xffffffff, .cstamp = 1234, .tstamp = 5678 }; add(n, IFA_CACHEINFO, &ci, sizeof ci); }
  dump("addr4", n);
  // 7. default via 192.0.2.254 dev 3 metric 100 src 192.0.2.1 mtu 1400, main, static
  struct rtmsg rt = { .rtm_family = AF_INET, .rtm_table = RT_TABLE_MAIN, .rtm_protocol = RTPROT_STATIC, .rtm_scope = RT_SCOPE_UNIVERSE, .rtm_type = RTN_UNICAST };
  n = start(RTM_NEWROUTE, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL, 7, &rt, sizeof rt);
  u32(n, RTA_TABLE, RT_TABLE_MAIN); ip4(n, RTA_GATEWAY, "192.0.2.254"); u32(n, RTA_OIF, 3); u32(n, RTA_PRIORITY, 100);
  ip4(n, RTA_PREFSRC, "192.0.2.1"); p = nest(n, RTA_METRICS); u32(n, RTAX_MTU, 1400); end(n, p);
  dump("route4", n);
  // 8. 2001:db8::/32 via fe80::1 dev 3 table 1000 (above 255: rtm_table is RT_TABLE_UNSPEC)
  struct rtmsg rt6 = { .rtm_family = AF_INET6, .rtm_dst_len = 32, .rtm_table = RT_TABLE_UNSPEC, .rtm_protocol = RTPROT_BOOT, .rtm_scope = RT_SCOPE_UNIVERSE, .rtm_type = RTN_UNICAST };
  n = start(RTM_NEWROUTE, NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_REPLACE, 8, &rt6, sizeof rt6);
  u32(n, RTA_TABLE, 1000); ip6(n, RTA_DST, "2001:db8::"); ip6(n, RTA_GATEWAY, "fe80::1"); u32(n, RTA_OIF, 3);
  dump("route6", n);
  // 9. the kernel's EEXIST for request seq 1, capped, with ext ack message and offset
  { struct nlmsgerr e = { .error = -17 }; e.msg.nlmsg_len = 52; e.msg.nlmsg_type = RTM_NEWLINK; e.msg.nlmsg_flags = NLM_F_REQUEST|NLM_F_ACK|NLM_F_CREATE|NLM_F_EXCL; e.msg.nlmsg_seq = 1; e.msg.nlmsg_pid = 4242;
    n = start(NLMSG_ERROR, NLM_F_CAPPED|NLM_F_ACK_TLVS, 1, &e, sizeof e); n->nlmsg_pid = 4242;
    str(n, NLMSGERR_ATTR_MSG, "File exists"); u32(n, NLMSGERR_ATTR_OFFS, 36);
    dump("eexist", n); }
  // 10. an ack (error 0) with the request echoed uncapped: 16 bytes of header + its 4-byte payload
  { unsigned char m[20 + 20] = {0}; struct nlmsgerr *e = (void*)m; e->error = 0; e->msg.nlmsg_len = 20; e->msg.nlmsg_type = RTM_DELLINK; e->msg.nlmsg_seq = 9; m[36]=0xaa;
    n = start(NLMSG_ERROR, 0, 9, m, sizeof m); dump("ack", n); }
  // 11. NLMSG_DONE of a dump, error 0
  { int z = 0; n = start(NLMSG_DONE, NLM_F_MULTI, 10, &z, sizeof z); dump("done", n); }
  return 0; }
