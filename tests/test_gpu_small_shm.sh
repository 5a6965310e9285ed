#!/bin/sh
# test_gpu as on a device whose thread blocks may have only 64 KB of shared
# memory (Turing): the FIR's horizontal pass takes its smaller chunks, RGBA
# fuses only to radius 8, and the recursive blocks' fused kernel takes
# shorter lines; and, as before Hopper, no thread-block clusters (the fused
# kernel a thread block a tile).  Skips (77) where test_gpu does: no GPU.
GB_CUDA_SHM_LIMIT=65536
GB_CUDA_NO_CLUSTERS=1
export GB_CUDA_SHM_LIMIT GB_CUDA_NO_CLUSTERS
exec "${builddir:-.}/tests/test_gpu" "$@"
