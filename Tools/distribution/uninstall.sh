#!/usr/bin/env bash
# usage: Tools/distribution/uninstall.sh PREFIX [VERSION]
#
# Removes what `make install` wrote under PREFIX for VERSION (every installed version when VERSION is empty): the
# files listed in PREFIX/share/dataconnect/<version>/installed-files and the version's tag in the package
# repository; the repository itself when no tag is left; PREFIX/bin/dataconnect when it named a removed version
# (it then names the highest version still installed, if any). Nothing else under PREFIX is touched.
set -euo pipefail
prefix=${1:?usage: uninstall.sh PREFIX [VERSION]}
prefix=${prefix%/}
only=${2:-}
share="$prefix/share/dataconnect"
repository="$share/DataConnect.git"
if [ -n "$only" ]; then versions=$only; else
  versions=$(find "$share" -mindepth 2 -maxdepth 2 -name installed-files 2>/dev/null | xargs -r -n1 dirname | xargs -r -n1 basename)
fi
[ -n "$versions" ] || { echo "no dataconnect installed under $prefix"; exit 0; }
for version in $versions; do
  list="$share/$version/installed-files"
  [ -f "$list" ] || { echo "dataconnect $version is not installed under $prefix" >&2; exit 1; }
  mapfile -t files < "$list"
  for file in "${files[@]}"; do rm -f "$prefix/$file"; done
  for file in "${files[@]}"; do
    dir=$(dirname "$prefix/$file")
    while [ "$dir" != "$prefix" ] && rmdir "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
  done
  if [ -d "$repository" ]; then git -C "$repository" tag -d "$version" > /dev/null 2>&1 || true; fi
  if [ "$(readlink "$prefix/bin/dataconnect" 2>/dev/null)" = "../lib/dataconnect/$version/dataconnect" ]; then
    rm -f "$prefix/bin/dataconnect"
  fi
  echo "removed dataconnect $version from $prefix"
done
if [ -d "$repository" ] && [ -z "$(git -C "$repository" tag)" ]; then rm -rf "$repository"; fi
remaining=$(find "$share" -mindepth 2 -maxdepth 2 -name installed-files 2>/dev/null | xargs -r -n1 dirname | xargs -r -n1 basename | sort -V | tail -1)
if [ -n "$remaining" ] && [ ! -e "$prefix/bin/dataconnect" ]; then
  ln -s "../lib/dataconnect/$remaining/dataconnect" "$prefix/bin/dataconnect"
  echo "$prefix/bin/dataconnect now names dataconnect $remaining"
fi
for dir in "$share" "$prefix/lib/dataconnect" "$prefix/share" "$prefix/lib" "$prefix/bin"; do rmdir "$dir" 2>/dev/null || true; done
