#!/bin/sh
# test_gpu as on a device whose thread blocks may have only 64 KB of shared
# memory (Turing): the FIR's horizontal pass takes its smaller chunks, RGBA
# fuses only to radius 8, and the recursive blocks' fused kernel takes
# shorter lines.  Skips (77) where test_gpu does: no GPU.
GB_CUDA_SHM_LIMIT=65536
export GB_CUDA_SHM_LIMIT
exec "${builddir:-.}/tests/test_gpu" "$@"
