/* Fuzzes the /etc/passwd and /etc/group parsers: the input is split at
 * the first NUL into a passwd and a group text, looked up as -u would. */
#include <stdlib.h>
#include <string.h>

#include "run/passwd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(text, 0, size);
	size_t plen = nul ? (size_t)(nul - text) : size;
	const char *group = nul ? nul + 1 : "";
	size_t glen = nul ? size - plen - 1 : 0;
	struct ior_passwd pw;
	struct ior_cred c;
	char err[256];
	uint32_t g[4];

	ior_passwd_find(text, plen, "alice", 0, &pw);
	ior_passwd_find(text, plen, NULL, 1000, &pw);
	if (ior_group_list(group, glen, "alice", 1000, g, 4) > 4)
		abort();
	ior_cred_resolve(&c, "alice", NULL, NULL, text, plen, group, glen, err, sizeof err);
	ior_cred_resolve(&c, NULL, "1000", NULL, text, plen, group, glen, err, sizeof err);
	if (c.ngroups > IOR_CRED_GROUPS || (c.has_pw && strlen(c.pw.name) >= IOR_PASSWD_NAME))
		abort();
	return 0;
}
