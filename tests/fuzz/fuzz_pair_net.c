/* Fuzzes the network extra of exit records (pair/net.h): the input is the
 * record after its head and ret (path lengths, ident forced to
 * IOR_EXIT_NET, then struct ior_exit_net and its address), cut where the
 * input ends; what it reads is formatted as the pairer would, and the
 * input as a descriptor name for ior_net_proto. */
#include <stdlib.h>
#include <string.h>

#include "bpf/event.h"
#include "pair/net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ior_rec_exit x;
	size_t head = __builtin_offsetof(struct ior_rec_exit, path_len), n = size;
	struct ior_exit_net net;
	char out[512], peer[256], proto[16], name[64];

	if (n > sizeof x - head)
		n = sizeof x - head;
	memset(&x, 0, sizeof x);
	memcpy((char *)&x + head, data, n);
	x.ident = IOR_EXIT_NET;
	if (!ior_net_read((const char *)&x, head + n, &net)) {
		if (net.addr_len > IOR_SOCKADDR_MAX)
			abort();
		ior_net_addr(&net, peer, sizeof peer);
		ior_net_addr_unix(&net);
		if (strlen(ior_net_sk_name(&net, "tcp", NULL, out, sizeof out)) >= sizeof out ||
		    strlen(ior_net_sk_name(&net, "", peer, out, sizeof out)) >= sizeof out)
			abort();
	}
	memcpy(name, data, size < sizeof name - 1 ? size : sizeof name - 1);
	name[size < sizeof name - 1 ? size : sizeof name - 1] = 0;
	if (strlen(ior_net_proto(name, proto)) >= sizeof proto)
		abort();
	return 0;
}
