// Reads an input segment after freeing it; --ring-check must stop it
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
    vmcu.kernel "reread" ins(%x) outs(%y) {
      scf.for %i = %c0 to %c2 step %c1 {
        %a = arith.addi %x, %i : index
        vmcu.free %pool[%a] : !pool
        %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
        %b = arith.addi %y, %i : index
        vmcu.ring_store %v, %pool[%b] : vector<16xi8>, !pool
      }
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
