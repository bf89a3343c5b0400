;; The kernel of sparse-query-scan.ts: the int8 dot products of one sparse query with every
;; offer, over vectors laid out in blocks of $blockOffers offers (a multiple of 16; per block, each
;; dimension's values side by side), reading only the query's non-zero dimensions. Compiled to
;; sparse-scan.wasm.ts by `pnpm --filter search wasm:build`; sparse-query-scan.spec.ts fails when
;; the two differ.
(module
  (import "env" "memory" (memory 1))
  ;; For each block ($blockBytes = dimension × $blockOffers bytes from $vectors) and each of its
  ;; groups of 16 offers: Σ over the nnz query dimensions of vector × weight, in 32-bit integers,
  ;; times the offer's 1 / int8 norm (f32 at $norms), stored as f32 at $out; and each block's
  ;; largest score as f32 at $maxes.
  ;; $dims: nnz i32 byte offsets in a block (dimension × $blockOffers); $weights: nnz × 16 bytes,
  ;; each the query's int8 value of that dimension repeated 16 times.
  (func (export "score")
    (param $vectors i32) (param $norms i32) (param $out i32) (param $blocks i32)
    (param $blockBytes i32) (param $dims i32) (param $weights i32) (param $nnz i32) (param $blockOffers i32)
    (param $maxes i32)
    (local $b i32) (local $base i32) (local $group i32) (local $t i32) (local $at i32) (local $o i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $v v128) (local $w v128) (local $lo v128) (local $hi v128)
    (local $r v128) (local $largest v128)
    (local.set $base (local.get $vectors))
    (block $blocks_done
      (loop $block
        (br_if $blocks_done (i32.ge_u (local.get $b) (local.get $blocks)))
        (local.set $group (i32.const 0))
        (local.set $largest (v128.const f32x4 -inf -inf -inf -inf))
        (loop $groups
          (local.set $a0 (v128.const i32x4 0 0 0 0))
          (local.set $a1 (v128.const i32x4 0 0 0 0))
          (local.set $a2 (v128.const i32x4 0 0 0 0))
          (local.set $a3 (v128.const i32x4 0 0 0 0))
          (local.set $at (i32.add (local.get $base) (local.get $group)))
          (local.set $t (i32.const 0))
          (block $dims_done
            ;; two dimensions at a time: |int8 × int8| ≤ 127 × 127 (the vectors and the query are
            ;; quantized to −127 … 127), so two products sum in 16 bits, widened to 32 once
            (loop $dim
              (br_if $dims_done (i32.ge_u (i32.add (local.get $t) (i32.const 1)) (local.get $nnz)))
              (local.set $v (v128.load (i32.add (local.get $at)
                (i32.load (i32.add (local.get $dims) (i32.shl (local.get $t) (i32.const 2)))))))
              (local.set $w (v128.load (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 4)))))
              (local.set $lo (i16x8.extmul_low_i8x16_s (local.get $v) (local.get $w)))
              (local.set $hi (i16x8.extmul_high_i8x16_s (local.get $v) (local.get $w)))
              (local.set $v (v128.load (i32.add (local.get $at)
                (i32.load offset=4 (i32.add (local.get $dims) (i32.shl (local.get $t) (i32.const 2)))))))
              (local.set $w (v128.load offset=16 (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 4)))))
              (local.set $lo (i16x8.add (local.get $lo) (i16x8.extmul_low_i8x16_s (local.get $v) (local.get $w))))
              (local.set $hi (i16x8.add (local.get $hi) (i16x8.extmul_high_i8x16_s (local.get $v) (local.get $w))))
              (local.set $a0 (i32x4.add (local.get $a0) (i32x4.extend_low_i16x8_s (local.get $lo))))
              (local.set $a1 (i32x4.add (local.get $a1) (i32x4.extend_high_i16x8_s (local.get $lo))))
              (local.set $a2 (i32x4.add (local.get $a2) (i32x4.extend_low_i16x8_s (local.get $hi))))
              (local.set $a3 (i32x4.add (local.get $a3) (i32x4.extend_high_i16x8_s (local.get $hi))))
              (local.set $t (i32.add (local.get $t) (i32.const 2)))
              (br $dim)))
          ;; an odd count's last dimension
          (if (i32.lt_u (local.get $t) (local.get $nnz))
            (then
              (local.set $v (v128.load (i32.add (local.get $at)
                (i32.load (i32.add (local.get $dims) (i32.shl (local.get $t) (i32.const 2)))))))
              (local.set $w (v128.load (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 4)))))
              (local.set $lo (i16x8.extmul_low_i8x16_s (local.get $v) (local.get $w)))
              (local.set $hi (i16x8.extmul_high_i8x16_s (local.get $v) (local.get $w)))
              (local.set $a0 (i32x4.add (local.get $a0) (i32x4.extend_low_i16x8_s (local.get $lo))))
              (local.set $a1 (i32x4.add (local.get $a1) (i32x4.extend_high_i16x8_s (local.get $lo))))
              (local.set $a2 (i32x4.add (local.get $a2) (i32x4.extend_low_i16x8_s (local.get $hi))))
              (local.set $a3 (i32x4.add (local.get $a3) (i32x4.extend_high_i16x8_s (local.get $hi))))))
          (local.set $r (f32x4.mul (f32x4.convert_i32x4_s (local.get $a0))
            (v128.load (i32.add (local.get $norms) (local.get $o)))))
          (v128.store (i32.add (local.get $out) (local.get $o)) (local.get $r))
          (local.set $largest (f32x4.max (local.get $largest) (local.get $r)))
          (local.set $r (f32x4.mul (f32x4.convert_i32x4_s (local.get $a1))
            (v128.load offset=16 (i32.add (local.get $norms) (local.get $o)))))
          (v128.store offset=16 (i32.add (local.get $out) (local.get $o)) (local.get $r))
          (local.set $largest (f32x4.max (local.get $largest) (local.get $r)))
          (local.set $r (f32x4.mul (f32x4.convert_i32x4_s (local.get $a2))
            (v128.load offset=32 (i32.add (local.get $norms) (local.get $o)))))
          (v128.store offset=32 (i32.add (local.get $out) (local.get $o)) (local.get $r))
          (local.set $largest (f32x4.max (local.get $largest) (local.get $r)))
          (local.set $r (f32x4.mul (f32x4.convert_i32x4_s (local.get $a3))
            (v128.load offset=48 (i32.add (local.get $norms) (local.get $o)))))
          (v128.store offset=48 (i32.add (local.get $out) (local.get $o)) (local.get $r))
          (local.set $largest (f32x4.max (local.get $largest) (local.get $r)))
          (local.set $o (i32.add (local.get $o) (i32.const 64)))
          (local.set $group (i32.add (local.get $group) (i32.const 16)))
          (br_if $groups (i32.lt_u (local.get $group) (local.get $blockOffers))))
        (f32.store (i32.add (local.get $maxes) (i32.shl (local.get $b) (i32.const 2)))
          (f32.max
            (f32.max (f32x4.extract_lane 0 (local.get $largest)) (f32x4.extract_lane 1 (local.get $largest)))
            (f32.max (f32x4.extract_lane 2 (local.get $largest)) (f32x4.extract_lane 3 (local.get $largest)))))
        (local.set $base (i32.add (local.get $base) (local.get $blockBytes)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $block)))))
