/* Socket endpoints: addresses as text, and /proc/net files (captured on
 * a 6.18 x86_64 host, some lines made up) looked up by inode. */
#include "pair/endpoint.h"
#include "t.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/un.h>

static const char tcp[] =
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	"   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 36 1 00000000b5768798 100 0 0 10 0\n"
	"   1: 0100007F:992F 0100007F:8B2C 01 00000000:00000000 00:00000000 00000000     0        0 48211 1 00000000e9519c7c 20 4 30 10 -1\n"
	"   2: 0500000A:1538 0900000A:9CB0 01 00000000:00000000 02:000AFF3B 00000000   105        0 77 2 0000000001bc05ca 20 4 1 10 -1\n";
static const char tcp6[] =
	"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	"   0: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 9001 1 0000000011111111 100 0 0 10 0\n"
	"   1: 00000000000000000000000001000000:0050 00000000000000000000000001000000:C350 01 00000000:00000000 00:00000000 00000000     0        0 9002 1 0000000022222222 20 4 30 10 -1\n"
	"   2: B80D0120000000000000000001000000:01BB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 9003 1 0000000033333333 100 0 0 10 0\n";
static const char udp[] =
	"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
	"  123: 3500007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000   101        0 555 2 00000000deadbeef 0\n";
static const char unixs[] =
	"Num       RefCount Protocol Flags    Type St Inode Path\n"
	"000000002509344e: 00000003 00000000 00000000 0001 03  1599\n"
	"00000000486b243b: 00000002 00000000 00010000 0001 01  1600 /run/systemd/journal/stdout\n"
	"0000000012345678: 00000002 00000000 00010000 0001 01  1601 @/tmp/.X11-unix/X0\n"
	"0000000087654321: 00000002 00000000 00010000 0002 01  1602 /tmp/with space.sock\n";

TEST(proc_net_inet)
{
	char out[128];
	CHECK_EQ_INT(ior_procnet_inet(tcp, "tcp", 36, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp:0.0.0.0:2024"); /* a listener: no peer */
	CHECK_EQ_INT(ior_procnet_inet(tcp, "tcp", 48211, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp:127.0.0.1:39215->127.0.0.1:35628");
	CHECK_EQ_INT(ior_procnet_inet(tcp, "tcp", 77, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp:10.0.0.5:5432->10.0.0.9:40112");
	CHECK_EQ_INT(ior_procnet_inet(tcp, "tcp", 1, out, sizeof out), 0);
	CHECK_EQ_INT(ior_procnet_inet(tcp, "tcp", 0, out, sizeof out), 0); /* the header is no socket */
	CHECK_EQ_INT(ior_procnet_inet(tcp6, "tcp6", 9001, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp6:[::1]:80");
	CHECK_EQ_INT(ior_procnet_inet(tcp6, "tcp6", 9002, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp6:[::1]:80->[::1]:50000");
	CHECK_EQ_INT(ior_procnet_inet(tcp6, "tcp6", 9003, out, sizeof out), 1);
	CHECK_EQ_STR(out, "tcp6:[2001:db8::1]:443");
	CHECK_EQ_INT(ior_procnet_inet(udp, "udp", 555, out, sizeof out), 1);
	CHECK_EQ_STR(out, "udp:127.0.0.53:53");
	CHECK_EQ_INT(ior_procnet_inet(tcp6, "tcp", 9001, out, sizeof out), 0); /* v6 text read as v4 */
	CHECK_EQ_INT(ior_procnet_inet("", "tcp", 36, out, sizeof out), 0);
}

TEST(proc_net_unix)
{
	char out[128];
	CHECK_EQ_INT(ior_procnet_unix(unixs, 1599, out, sizeof out), 1);
	CHECK_EQ_STR(out, "unix:unnamed");
	CHECK_EQ_INT(ior_procnet_unix(unixs, 1600, out, sizeof out), 1);
	CHECK_EQ_STR(out, "unix:/run/systemd/journal/stdout");
	CHECK_EQ_INT(ior_procnet_unix(unixs, 1601, out, sizeof out), 1);
	CHECK_EQ_STR(out, "unix:@/tmp/.X11-unix/X0");
	CHECK_EQ_INT(ior_procnet_unix(unixs, 1602, out, sizeof out), 1);
	CHECK_EQ_STR(out, "unix:/tmp/with space.sock");
	CHECK_EQ_INT(ior_procnet_unix(unixs, 42, out, sizeof out), 0);
}

TEST(socket_addresses)
{
	char a[128], b[128], out[256];
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(5432) };
	struct sockaddr_in in2 = { .sin_family = AF_INET, .sin_port = htons(40112) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(80), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un ab = { .sun_family = AF_UNIX, .sun_path = "\0abstract" };
	socklen_t unlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + sizeof "/run/x.sock");

	inet_pton(AF_INET, "10.0.0.5", &in.sin_addr);
	inet_pton(AF_INET, "10.0.0.9", &in2.sin_addr);
	ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&in, sizeof in);
	ior_endpoint_addr(b, sizeof b, (struct sockaddr *)&in2, sizeof in2);
	CHECK_EQ_STR(ior_endpoint_join(out, sizeof out, "tcp", a, b), "tcp:10.0.0.5:5432->10.0.0.9:40112");
	CHECK_EQ_STR(ior_endpoint_join(out, sizeof out, "udp", a, ""), "udp:10.0.0.5:5432");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&in6, sizeof in6), "[::1]:80");
	CHECK_EQ_STR(ior_endpoint_join(out, sizeof out, "tcp6", a, "[::]:0"), "tcp6:[::1]:80");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&un, unlen), "/run/x.sock");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&un, sizeof un), "/run/x.sock");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&ab,
				       (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 9)), "@abstract");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&un, sizeof(sa_family_t)), "unnamed");
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, (struct sockaddr *)&in, 4), ""); /* too short */
	CHECK_EQ_STR(ior_endpoint_addr(a, sizeof a, NULL, 0), "");
}

TEST(names_by_inode)
{
	struct ior_sock_names *n = ior_sock_names_new();
	CHECK(n != NULL);
	CHECK_EQ_INT(ior_sock_names_load(n, "tcp", tcp), 0);
	CHECK_EQ_INT(ior_sock_names_load(n, "tcp6", tcp6), 0);
	CHECK_EQ_INT(ior_sock_names_load(n, "udp", udp), 0);
	CHECK_EQ_INT(ior_sock_names_load(n, "unix", unixs), 0);
	CHECK_EQ_STR(ior_sock_names_find(n, 48211), "tcp:127.0.0.1:39215->127.0.0.1:35628");
	CHECK_EQ_STR(ior_sock_names_find(n, 9003), "tcp6:[2001:db8::1]:443");
	CHECK_EQ_STR(ior_sock_names_find(n, 555), "udp:127.0.0.53:53");
	CHECK_EQ_STR(ior_sock_names_find(n, 1601), "unix:@/tmp/.X11-unix/X0");
	CHECK_EQ_STR(ior_sock_names_find(n, 36), "tcp:0.0.0.0:2024");
	CHECK(ior_sock_names_find(n, 37) == NULL && ior_sock_names_find(NULL, 36) == NULL);
	ior_sock_names_free(n);
}

int main(void)
{
	RUN(proc_net_inet);
	RUN(proc_net_unix);
	RUN(socket_addresses);
	RUN(names_by_inode);
	return t_done();
}
