// A placed model that breaks the ring discipline: "copy" writes its output
// at segment 2 while input segments 2 and 3 are still unread (a correct
// placement puts the output at base 4). Runs unchecked; --ring-check must
// stop it at the first store.
!pool = !vmcu.pool<segments = 6, segment_bytes = 16>
module {
  func.func @vmcu_invoke() -> i32 {
    %pool = vmcu.segment_pool {alignment = 8} : !pool
    %x = vmcu.tensor_base %pool {name = "input", segments = 4, base = 0, vmcu.io = "input"} : !pool
    %y = vmcu.tensor_base %pool {name = "copy", segments = 4, base = 2, vmcu.io = "output"} : !pool
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    vmcu.kernel "copy" ins(%x) outs(%y) {
      scf.for %i = %c0 to %c4 step %c1 {
        %a = arith.addi %x, %i : index
        %v = vmcu.ring_load %pool[%a] : !pool -> vector<16xi8>
        %b = arith.addi %y, %i : index
        vmcu.ring_store %v, %pool[%b] : vector<16xi8>, !pool
        vmcu.free %pool[%a] : !pool
      }
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
