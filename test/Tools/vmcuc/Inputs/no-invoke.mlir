// Lowers fine, but has no C entry point.
!pool = !vmcu.pool<segments = 8, segment_bytes = 16>
func.func @run() {
  %pool = vmcu.segment_pool : !pool
  %x = vmcu.tensor_base %pool {name = "x", segments = 4, base = 0} : !pool
  %v = vmcu.ring_load %pool[%x] : !pool -> vector<16xi8>
  return
}
