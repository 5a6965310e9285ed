#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_gpu as on a device whose thread blocks may have only 64 KB of shared
# memory (Turing): the FIR's horizontal pass takes its smaller chunks, RGBA
# fuses only to radius 8, and the recursive blocks' fused kernel takes
# shorter lines; and, as before Hopper, no thread-block clusters (the fused
# kernel a thread block a tile) and no programmatic dependent launches (each
# kernel starts once the one before it has finished).  Skips (77) where
# test_gpu does: no GPU.
GB_CUDA_SHM_LIMIT=65536
GB_CUDA_NO_CLUSTERS=1
GB_CUDA_NO_PDL=1
export GB_CUDA_SHM_LIMIT GB_CUDA_NO_CLUSTERS GB_CUDA_NO_PDL
exec "${builddir:-.}/tests/test_gpu" "$@"
