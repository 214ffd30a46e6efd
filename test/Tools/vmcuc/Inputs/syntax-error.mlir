func.func @vmcu_invoke() -> i32 {
  %ok = arith.constant 0 : i32
  return %ok : i64
}
