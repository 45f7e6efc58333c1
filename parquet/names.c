/* Names the Parquet rows carry that the syscall table does not (yet):
 * errno names and syscall families. */
#include "names.h"
#include "trace/syscalls.h"

#include <stdio.h>
#include <string.h>

/* Linux's errno numbers (asm-generic, as on x86_64). */
static const char *const errnos[] = {
	[1] = "EPERM",
	[2] = "ENOENT",
	[3] = "ESRCH",
	[4] = "EINTR",
	[5] = "EIO",
	[6] = "ENXIO",
	[7] = "E2BIG",
	[8] = "ENOEXEC",
	[9] = "EBADF",
	[10] = "ECHILD",
	[11] = "EAGAIN",
	[12] = "ENOMEM",
	[13] = "EACCES",
	[14] = "EFAULT",
	[15] = "ENOTBLK",
	[16] = "EBUSY",
	[17] = "EEXIST",
	[18] = "EXDEV",
	[19] = "ENODEV",
	[20] = "ENOTDIR",
	[21] = "EISDIR",
	[22] = "EINVAL",
	[23] = "ENFILE",
	[24] = "EMFILE",
	[25] = "ENOTTY",
	[26] = "ETXTBSY",
	[27] = "EFBIG",
	[28] = "ENOSPC",
	[29] = "ESPIPE",
	[30] = "EROFS",
	[31] = "EMLINK",
	[32] = "EPIPE",
	[33] = "EDOM",
	[34] = "ERANGE",
	[35] = "EDEADLK",
	[36] = "ENAMETOOLONG",
	[37] = "ENOLCK",
	[38] = "ENOSYS",
	[39] = "ENOTEMPTY",
	[40] = "ELOOP",
	[42] = "ENOMSG",
	[43] = "EIDRM",
	[44] = "ECHRNG",
	[45] = "EL2NSYNC",
	[46] = "EL3HLT",
	[47] = "EL3RST",
	[48] = "ELNRNG",
	[49] = "EUNATCH",
	[50] = "ENOCSI",
	[51] = "EL2HLT",
	[52] = "EBADE",
	[53] = "EBADR",
	[54] = "EXFULL",
	[55] = "ENOANO",
	[56] = "EBADRQC",
	[57] = "EBADSLT",
	[59] = "EBFONT",
	[60] = "ENOSTR",
	[61] = "ENODATA",
	[62] = "ETIME",
	[63] = "ENOSR",
	[64] = "ENONET",
	[65] = "ENOPKG",
	[66] = "EREMOTE",
	[67] = "ENOLINK",
	[68] = "EADV",
	[69] = "ESRMNT",
	[70] = "ECOMM",
	[71] = "EPROTO",
	[72] = "EMULTIHOP",
	[73] = "EDOTDOT",
	[74] = "EBADMSG",
	[75] = "EOVERFLOW",
	[76] = "ENOTUNIQ",
	[77] = "EBADFD",
	[78] = "EREMCHG",
	[79] = "ELIBACC",
	[80] = "ELIBBAD",
	[81] = "ELIBSCN",
	[82] = "ELIBMAX",
	[83] = "ELIBEXEC",
	[84] = "EILSEQ",
	[85] = "ERESTART",
	[86] = "ESTRPIPE",
	[87] = "EUSERS",
	[88] = "ENOTSOCK",
	[89] = "EDESTADDRREQ",
	[90] = "EMSGSIZE",
	[91] = "EPROTOTYPE",
	[92] = "ENOPROTOOPT",
	[93] = "EPROTONOSUPPORT",
	[94] = "ESOCKTNOSUPPORT",
	[95] = "EOPNOTSUPP",
	[96] = "EPFNOSUPPORT",
	[97] = "EAFNOSUPPORT",
	[98] = "EADDRINUSE",
	[99] = "EADDRNOTAVAIL",
	[100] = "ENETDOWN",
	[101] = "ENETUNREACH",
	[102] = "ENETRESET",
	[103] = "ECONNABORTED",
	[104] = "ECONNRESET",
	[105] = "ENOBUFS",
	[106] = "EISCONN",
	[107] = "ENOTCONN",
	[108] = "ESHUTDOWN",
	[109] = "ETOOMANYREFS",
	[110] = "ETIMEDOUT",
	[111] = "ECONNREFUSED",
	[112] = "EHOSTDOWN",
	[113] = "EHOSTUNREACH",
	[114] = "EALREADY",
	[115] = "EINPROGRESS",
	[116] = "ESTALE",
	[117] = "EUCLEAN",
	[118] = "ENOTNAM",
	[119] = "ENAVAIL",
	[120] = "EISNAM",
	[121] = "EREMOTEIO",
	[122] = "EDQUOT",
	[123] = "ENOMEDIUM",
	[124] = "EMEDIUMTYPE",
	[125] = "ECANCELED",
	[126] = "ENOKEY",
	[127] = "EKEYEXPIRED",
	[128] = "EKEYREVOKED",
	[129] = "EKEYREJECTED",
	[130] = "EOWNERDEAD",
	[131] = "ENOTRECOVERABLE",
	[132] = "ERFKILL",
	[133] = "EHWPOISON",
};

const char *ior_pq_errno_name(int64_t ret, char *buf, size_t len)
{
	uint64_t e = ret < 0 ? (uint64_t)0 - (uint64_t)ret : 0;

	if (e && e < sizeof errnos / sizeof *errnos && errnos[e])
		return errnos[e];
	snprintf(buf, len, "E%llu", (unsigned long long)e); /* kernel-internal (ERESTARTSYS: 512) */
	return buf;
}

static int any_of(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strstr(name, *list))
			return 1;
	return 0;
}

/* Until the syscall table carries a family (it will: one column there,
 * and this function becomes its lookup), a family from the class and
 * the name. */
const char *ior_pq_family(unsigned sys)
{
	static const char *const meta[] = { "stat", "access", "readlink", "xattr", "chmod", "chown",
					    "utime", "truncate", "fallocate", "fadvise", NULL };
	static const char *const sync[] = { "sync", NULL };
	static const char *const names[] = { "rename", "link", "unlink", "mkdir", "rmdir", "mknod", NULL };
	static const char *const dirs[] = { "getdents", "chdir", "getcwd", NULL };

	if (sys >= ior_nsyscalls)
		return "other";
	const struct ior_syscall *s = &ior_syscalls[sys];
	switch (s->cls) {
	case IOR_SC_READ: return "read";
	case IOR_SC_WRITE: return "write";
	case IOR_SC_TRANSFER: return "transfer";
	case IOR_SC_OPEN: return "open";
	case IOR_SC_CLOSE:
	case IOR_SC_CLOSE_RANGE: return "close";
	case IOR_SC_DUP:
	case IOR_SC_FCNTL: return "fd";
	}
	if (any_of(s->name, sync))
		return "sync";
	if (any_of(s->name, meta)) /* first: readlink is no link */
		return "metadata";
	if (any_of(s->name, names))
		return "namespace";
	if (any_of(s->name, dirs))
		return "directory";
	return "other";
}
