# shared-models.sh - sourced by bench/models.sh and bench/cost-model.sh: the
# shared .tflite models and the tensor each run stops at (empty: the
# model's output), and a fixed pseudo-random input.

# file | output tensor (empty: the model's output)
SHARED_MODEL_CASES="
mcunet-5fps-vww.tflite|
mlperf-tiny-vww-96-int8.tflite|
mlperf-tiny-kws-dscnn-int8.tflite|
"

# random_input HEADER FILE: VMCU_INPUT_BYTES pseudo-random bytes (seed 1).
random_input() {
  local bytes
  bytes=$(sed -n 's/#define VMCU_INPUT_BYTES \([0-9]*\).*/\1/p' "$1")
  /usr/bin/python3 -c "import random,sys; r=random.Random(1); \
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range($bytes)))" > "$2"
}
