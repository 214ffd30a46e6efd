// Frees the input segment it just read together with the next one, then
// frees that one again in the next iteration; --ring-check must stop it
// (test/Tools/vmcuc/ring-check-qemu.test).
!pool = !vmcu.pool<segments = 4, segment_bytes = 16>
module {
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool {alignment = 8} : !pool
    %x = vmcu.tensor_base %pool {name = "input", segments = 2, base = 0, vmcu.io = "input"} : !pool
    %y = vmcu.tensor_base %pool {name = "y", segments = 2, base = 2, vmcu.io = "output"} : !pool
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    vmcu.kernel "first" ins(%x) outs(%y) {
      %v = vmcu.ring_load %pool[%x] : !pool -> vector<16xi8>
      vmcu.ring_store %v, %pool[%y] : vector<16xi8>, !pool
      vmcu.free %pool[%x] {count = 2} : !pool
      %a = arith.addi %x, %c1 : index
      vmcu.free %pool[%a] : !pool
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
