#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Generates configure and the Makefile templates from a git checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --force --install --verbose
echo "Now run ./configure (or ./configure --disable-plugin for the engine alone)."
