#!/usr/bin/env bash
# usage: Tools/distribution/install.sh PREFIX [DESTDIR]
#
# Installs the dataconnect toolkit under PREFIX (`make install`): the release CLI (static Swift runtime), the
# templates of `dataconnect init`, and the SDK's and test harness's sources as a tag of the package repository
# PREFIX/share/dataconnect/DataConnect.git, which projects depend on by URL and exact version. Versions install
# side by side; PREFIX/bin/dataconnect names the last one installed, PREFIX/bin/dataconnect-<version> each one.
# Everything written is listed in PREFIX/share/dataconnect/<version>/installed-files for `make uninstall`.
# DESTDIR stages the files elsewhere (the Debian package uses it) with paths that name PREFIX.
set -euo pipefail
prefix=${1:?usage: install.sh PREFIX [DESTDIR]}
destdir=${2:-}
case "$prefix" in /*) ;; *) prefix="$(cd "$(dirname "$prefix")" && pwd)/$(basename "$prefix")" ;; esac
prefix=${prefix%/}
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

echo "== building the release CLI (static Swift runtime)"
swift build -c release --product dataconnect --static-swift-stdlib
binary="$(swift build -c release --show-bin-path)/dataconnect"
version=$("$binary" --version | awk '{print $2}')
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]; then commit="$commit-modified"; fi

dest="$destdir$prefix"
lib="$dest/lib/dataconnect/$version"
share="$dest/share/dataconnect/$version"
repository="$dest/share/dataconnect/DataConnect.git"
echo "== installing dataconnect $version (commit $commit) into $dest"
mkdir -p "$lib" "$share" "$dest/bin"
install -m 755 "$binary" "$lib/dataconnect"
echo "commit $commit" > "$lib/build-info"
rm -rf "$share/templates"
mkdir -p "$share/templates"
cp -r Templates/common Templates/blank Templates/movies Templates/README.md "$share/templates/"
ln -sfn "../lib/dataconnect/$version/dataconnect" "$dest/bin/dataconnect"
ln -sfn "../lib/dataconnect/$version/dataconnect" "$dest/bin/dataconnect-$version"

echo "== the SDK's sources as tag $version of $prefix/share/dataconnect/DataConnect.git"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
python3 Tools/distribution/toolkit-package.py "$root" "$staging/DataConnect"
git_as_installer=(git -c user.name=dataconnect -c user.email=dataconnect@localhost -c init.defaultBranch=main
  -c advice.detachedHead=false)
(
  cd "$staging/DataConnect"
  "${git_as_installer[@]}" init -q
  "${git_as_installer[@]}" add -A
  "${git_as_installer[@]}" commit -q -m "dataconnect $version (commit $commit)"
  "${git_as_installer[@]}" tag -f "$version" > /dev/null
)
if [ ! -d "$repository" ]; then "${git_as_installer[@]}" init -q --bare "$repository"; fi
"${git_as_installer[@]}" -C "$staging/DataConnect" push -q --force "$repository" \
  "refs/tags/$version:refs/tags/$version" "HEAD:refs/heads/main"
chmod -R a+rX "$repository" "$lib" "$share"

# What uninstall removes for this version (paths under PREFIX); the tag is removed from the repository.
(
  cd "$dest"
  {
    find "lib/dataconnect/$version" "share/dataconnect/$version/templates" -type f -o -type l
    echo "bin/dataconnect-$version"
    echo "share/dataconnect/$version/installed-files"
  } | LC_ALL=C sort > "share/dataconnect/$version/installed-files"
)
echo "installed: $prefix/bin/dataconnect -> dataconnect $version; projects pin .package(url: \"file://$prefix/share/dataconnect/DataConnect.git\", exact: \"$version\")"
