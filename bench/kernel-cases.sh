# kernel-cases.sh - the kernels bench/latency.sh and bench/cycles.sh measure
# (sourced by both).
# name | MACs | vmcu-gen arguments
CASES="
pointwise 16x16x32->64|$((16 * 16 * 32 * 64))|--kind=conv --h=16 --w=16 --cin=32 --cout=64 --kernel=1 --stride=1 --padding=same
conv3x3 16x16x16->32|$((16 * 16 * 16 * 32 * 9))|--kind=conv --h=16 --w=16 --cin=16 --cout=32 --kernel=3 --stride=1 --padding=same
depthwise3x3 16x16x64|$((16 * 16 * 64 * 9))|--kind=depthwise --h=16 --w=16 --c=64 --kernel=3 --stride=1 --padding=same
fc 1x256->64|$((256 * 64))|--kind=fc --m=1 --k=256 --n=64
"
