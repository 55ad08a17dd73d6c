#!/usr/bin/env bash
# A shared libbrisk exports the API of include/brisk/ and nothing else, under
# the SONAME the build promises. Each dynamic symbol, demangled, must be a
# brisk:: name (or its typeinfo or vtable), outside every detail namespace,
# brisk::sys and anonymous namespaces, and each part of its name must be
# declared in include/brisk/. Prints every offender, then fails.
#
# usage: exports_test.sh LIBBRISK_SO EXPECTED_SONAME INCLUDE_DIR
set -euo pipefail
library=$1
expected_soname=$2
include_dir=$3

soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [[ "$soname" != "$expected_soname" ]]; then
  echo "SONAME is '${soname}', expected '${expected_soname}'" >&2
  exit 1
fi

# Every identifier the public headers use outside comments.
identifiers=$(find "$include_dir/brisk" -name '*.h' -exec cat {} + | sed 's://.*$::' |
  grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u)

# The entity a demangled symbol names, parameters and template arguments
# dropped: "brisk::netlink::Connection::open_in(int, ...)" gives
# "brisk::netlink::Connection::open_in". Operators keep their symbol.
entity() {
  awk '{
    s = $0; out = ""; depth = 0; n = length(s)
    for (i = 1; i <= n; i++) {
      c = substr(s, i, 1)
      if (depth == 0 && substr(s, i, 8) == "operator") {
        j = i + 8
        if (substr(s, j, 2) == "()") j += 2
        else if (substr(s, j, 1) == " ") { j++; while (j <= n && substr(s, j, 1) ~ /[A-Za-z0-9_]/) j++ }
        else while (j <= n && index("<>=!+-*/%&|^~[],", substr(s, j, 1)) > 0) j++
        out = out substr(s, i, j - i); i = j - 1; continue
      }
      if (c == "<") depth++
      else if (c == ">") depth--
      else if (depth == 0 && c == "(") break
      else if (depth == 0) out = out c
    }
    gsub(/\[abi:[a-z0-9]+\]/, "", out)
    print out
  }'
}

total=0
failures=()
while read -r mangled; do
  total=$((total + 1))
  case "$mangled" in
    _init | _fini | _edata | _end | __bss_start) continue ;;  # the linker's own
  esac
  demangled=$(c++filt "$mangled")
  name=$demangled
  for prefix in "typeinfo for " "typeinfo name for " "vtable for " "VTT for " "guard variable for " \
                "non-virtual thunk to " "virtual thunk to "; do
    name=${name#"$prefix"}
  done
  if [[ "$name" != brisk::* ]]; then
    failures+=("not in namespace brisk: $demangled")
    continue
  fi
  if [[ "$demangled" == *::detail::* || "$demangled" == *brisk::sys::* || "$demangled" == *"(anonymous namespace)"* ]]; then
    failures+=("internal: $demangled")
    continue
  fi
  qualified=$(entity <<<"$name")
  IFS=' ' read -r -a parts <<<"${qualified//::/ }"
  for part in "${parts[@]:1}"; do
    part=${part#\~}
    if [[ "$part" == operator* ]]; then
      grep -rqF -- "$part" "$include_dir/brisk" && continue
    elif grep -qxF -- "$part" <<<"$identifiers"; then
      continue
    fi
    failures+=("'$part' is not declared in include/brisk/: $demangled")
    break
  done
done < <(nm -D --defined-only "$library" | awk '{print $NF}')

if ((${#failures[@]})); then
  printf '%s\n' "${failures[@]}" >&2
  echo "${#failures[@]} of ${total} exported symbols are not libbrisk's public API" >&2
  exit 1
fi
echo "SONAME ${soname}; ${total} exported symbols, all of the public API"
