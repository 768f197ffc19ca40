#!/usr/bin/env bash
# usage: Tools/distribution/package.sh OUTDIR
#
# Builds the Debian package dataconnect_<version>_amd64.deb in OUTDIR (`make package`): the toolkit installed
# under /usr by install.sh into a staging folder, with a control file, packed by `dpkg-deb --root-owner-group`.
# Install it with `apt-get install ./dataconnect_<version>_amd64.deb`; remove it with `apt-get purge dataconnect`.
set -euo pipefail
out=${1:?usage: package.sh OUTDIR}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
root="$(cd "$(dirname "$0")/../.." && pwd)"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
bash "$root/Tools/distribution/install.sh" /usr "$stage/root"
version=$(basename "$(dirname "$(find "$stage/root/usr/share/dataconnect" -mindepth 2 -maxdepth 2 -name installed-files)")")
architecture=$(dpkg --print-architecture)
# The package manager owns what it installs: uninstall.sh's list is not needed.
rm -f "$stage/root/usr/share/dataconnect/$version/installed-files"
mkdir -p "$stage/root/DEBIAN"
size=$(du -sk "$stage/root/usr" | cut -f1)
cat > "$stage/root/DEBIAN/control" <<CONTROL
Package: dataconnect
Version: $version
Architecture: $architecture
Maintainer: Data Connect for Swift maintainers <dataconnect@localhost>
Installed-Size: $size
Section: devel
Priority: optional
Depends: git, pkg-config, libsqlite3-dev, libyaml-dev, libmicrohttpd-dev, libwebsockets-dev, libpq-dev, libssl-dev, libcurl4, libstdc++6
Recommends: postgresql
Description: Data Connect for Swift: CLI, emulator, SDK sources and templates
 The dataconnect command (validate, generate, init, emulator, sql, postgres,
 upgrade) with the Data Connect emulator built in, the templates of
 dataconnect init, and the Swift SDK and test harness as a package repository
 at /usr/share/dataconnect/DataConnect.git, which generated projects depend on
 by version. Building those projects needs a Swift 6 toolchain; the -dev
 packages this depends on are the C libraries their builds compile against.
CONTROL
deb="$out/dataconnect_${version}_${architecture}.deb"
dpkg-deb --root-owner-group --build "$stage/root" "$deb" > /dev/null
echo "$deb"
