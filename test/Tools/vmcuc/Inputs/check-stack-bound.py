"""stack-bound.test: the header's VMCU_STACK_BYTES is at least the stack
vmcu-prof measured, and at most an allowance more: the C library frame
allowance (20 B), or the third argument (the ring checker's, 128 B)."""
import re
import sys

# StackBound.h's kLibcFrameBytes: memset may be priced above its frame.
LIBC_FRAME_BYTES = 20

header, prof = (open(path).read() for path in sys.argv[1:3])
allowance = int(sys.argv[3]) if len(sys.argv) > 3 else LIBC_FRAME_BYTES
bound = int(re.search(r"#define VMCU_STACK_BYTES (\d+)u", header).group(1))
measured = int(re.search(r"stack=(\d+) bytes", prof).group(1))
if not measured <= bound <= measured + allowance:
    sys.exit(f"error: VMCU_STACK_BYTES {bound} against {measured} measured")
print(f"bound {bound}, measured {measured}")
