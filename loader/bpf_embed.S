/* The BPF object compiled from bpf.c, embedded read-only in the binary. */
	.section .rodata
	.balign 8
	.global ior_bpf_object
ior_bpf_object:
	.incbin IOR_BPF_OBJ
	.global ior_bpf_object_end
ior_bpf_object_end:
	.section .note.GNU-stack,"",@progbits
