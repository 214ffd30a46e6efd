"""stack-bound.test: the header's VMCU_STACK_BYTES is at least the stack
vmcu-prof measured, and at most the C library frame allowance (20 B) more."""
import re
import sys

# StackBound.h's kLibcFrameBytes: memset may be priced above its frame.
LIBC_FRAME_BYTES = 20

header, prof = (open(path).read() for path in sys.argv[1:3])
bound = int(re.search(r"#define VMCU_STACK_BYTES (\d+)u", header).group(1))
measured = int(re.search(r"stack=(\d+) bytes", prof).group(1))
if not measured <= bound <= measured + LIBC_FRAME_BYTES:
    sys.exit(f"error: VMCU_STACK_BYTES {bound} against {measured} measured")
print(f"bound {bound}, measured {measured}")
