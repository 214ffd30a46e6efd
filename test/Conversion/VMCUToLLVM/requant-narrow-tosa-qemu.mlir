// vmcu.requantize {narrow_value} (shift promised in [9, 31] and
// |value - input_zp| * 2^(32 - shift) < 2^31, as an int8 operand less its
// zero point keeps; lowered to one SMMULR) is bit-exact with TOSA 1.0
// RESCALE on Cortex-M4 and M7: int8 values with every shift in [9, 31]
// (ties of the rounding included, both signs) through the same ten
// attribute variants, against the same host reference.
//
// REQUIRES: qemu, host-cc

// DEFINE: %{cflags} = -mthumb -mfloat-abi=soft -O2 -Wall -Werror -ffunction-sections -fdata-sections -nostartfiles --specs=nano.specs --specs=nosys.specs -I%runtime_dir -Wl,--gc-sections -Wl,--no-enum-size-warning -Wl,-z,noexecstack
// DEFINE: %{rt} = %runtime_dir/startup.c %runtime_dir/vmcu_runtime.c %runtime_dir/harness.c

// RUN: rm -rf %t && mkdir -p %t
// RUN: %host_cc -std=c11 -O2 -Wall -Wextra -Werror %S/requant-tosa-ref.c -o %t/ref
// RUN: %t/ref gen-narrow 1536 %t/cases.bin
// RUN: %t/ref ref %t/cases.bin %t/expected.bin | FileCheck %s --check-prefix=COVER
// COVER: requant: cases=15360 defined=15360 negative_ties={{[1-9][0-9]*}} double_round_ties=0 distinct_shifts=23

// RUN: vmcuc %s --cpu=cortex-m4 -o %t/m4.o
// RUN: vmcuc %s --cpu=cortex-m7 -o %t/m7.o
// RUN: %arm_cc -mcpu=cortex-m4 %{cflags} -T %runtime_dir/boards/mps2-an386.ld %{rt} %t/m4.o -lm -o %t/m4.elf
// RUN: %arm_cc -mcpu=cortex-m7 %{cflags} -T %runtime_dir/boards/mps2-an500.ld %{rt} %t/m7.o -lm -o %t/m7.elf
// RUN: %qemu_m4 -kernel %t/m4.elf -append "%t/cases.bin %t/m4.bin" 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: %t/ref check %t/cases.bin %t/m4.bin | FileCheck %s --check-prefix=SAME
// RUN: cmp %t/expected.bin %t/m4.bin
// RUN: %qemu_m7 -kernel %t/m7.elf -append "%t/cases.bin %t/m7.bin" 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: %t/ref check %t/cases.bin %t/m7.bin | FileCheck %s --check-prefix=SAME
// RUN: cmp %t/expected.bin %t/m7.bin
// SUMMARY: vmcu: arena=49152 stack={{[0-9]+}} status=0
// SAME: requant: checked=1536 mismatches=0

// One 16-byte segment per case: {value, multiplier, shift, 0} in, and out
// the results of the ten variants (the order of kVariants in the reference):
// two int32 without clamp, then eight int8.
!pool = !vmcu.pool<segments = 3072, segment_bytes = 16>
module {
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool {alignment = 8} : !pool
    %x = vmcu.tensor_base %pool {name = "cases", segments = 1536, base = 0, vmcu.io = "input"} : !pool
    %y = vmcu.tensor_base %pool {name = "results", segments = 1536, base = 1536, vmcu.io = "output"} : !pool
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 1536 : index
    vmcu.kernel "requantize" ins(%x) outs(%y) {
      scf.for %i = %c0 to %n step %c1 {
        %a = arith.addi %x, %i : index
        %case = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
        %words = vector.bitcast %case : vector<16xi8> to vector<4xi32>
        %v = vector.extract %words[0] : i32 from vector<4xi32>
        %m = vector.extract %words[1] : i32 from vector<4xi32>
        %s = vector.extract %words[2] : i32 from vector<4xi32>
        %r0 = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = false, narrow_value} : i32
        %r1 = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -2147483648 : i32, max = 2147483647 : i32, double_round = true, narrow_value} : i32
        %r2 = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = false, narrow_value} : i8
        %r3 = vmcu.requantize %v, %m, %s {output_zp = 0 : i32, min = -128 : i32, max = 127 : i32, double_round = true, narrow_value} : i8
        %r4 = vmcu.requantize %v, %m, %s {output_zp = -128 : i32, min = -128 : i32, max = 127 : i32, double_round = true, narrow_value} : i8
        %r5 = vmcu.requantize %v, %m, %s {output_zp = 127 : i32, min = -128 : i32, max = 127 : i32, double_round = false, narrow_value} : i8
        %r6 = vmcu.requantize %v, %m, %s {input_zp = 5 : i32, output_zp = -3 : i32, min = -100 : i32, max = 100 : i32, double_round = true, narrow_value} : i8
        %r7 = vmcu.requantize %v, %m, %s {input_zp = -7 : i32, output_zp = 0 : i32, min = 0 : i32, max = 127 : i32, double_round = false, narrow_value} : i8
        %r8 = vmcu.requantize %v, %m, %s {input_zp = -128 : i32, output_zp = 10 : i32, min = -20 : i32, max = 20 : i32, double_round = false, narrow_value} : i8
        %r9 = vmcu.requantize %v, %m, %s {input_zp = 127 : i32, output_zp = -1 : i32, min = -128 : i32, max = 0 : i32, double_round = true, narrow_value} : i8
        %wide = vector.from_elements %r0, %r1 : vector<2xi32>
        %wideBytes = vector.bitcast %wide : vector<2xi32> to vector<8xi8>
        %narrow = vector.from_elements %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9 : vector<8xi8>
        %b = arith.addi %y, %i : index
        vmcu.ring_store %wideBytes, %pool[%b] : vector<8xi8>, !pool
        vmcu.ring_store %narrow, %pool[%b, %c8] : vector<8xi8>, !pool
        vmcu.free %pool[%a] : !pool
      }
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
