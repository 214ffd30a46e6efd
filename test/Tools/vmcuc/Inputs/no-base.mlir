// Tiled but not placed: the tensor bases have no `base` yet.
!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @vmcu_invoke() -> i32 {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4} : !pool
  %y = vmcu.tensor_base %pool {name = "y", segments = 4} : !pool
  vmcu.kernel "copy" ins(%x) outs(%y) {
    %v = vmcu.ring_load %pool[%x] : !pool -> vector<16xi8>
    vmcu.ring_store %v, %pool[%y] : vector<16xi8>, !pool
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
