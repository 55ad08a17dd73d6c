#!/usr/bin/env bash
# No code decides anything by an error's words. Errors carry typed facts
# (NetlinkError::missing, file_step, dump, kernel, code; CniException's
# code; SpawnError's step), and code acts on those; the texts are for
# people and may be reworded at any time. This fails on any line of C++
# under src/, include/ or bindings/ that inspects the words of an error
# (its detail, ext_ack, message() or what()), or that compares an op with
# a string rather than by identity (runner.h's markers).
#
# A line may carry "error-text:" and a reason, for the rare text that has
# no typed form (a kernel that says a thing only in its extended ACK).
#
# usage: error_text_test.sh SOURCE_ROOT
set -euo pipefail
root=$1
cd "$root"

inspect='(\.find|\.rfind|\.starts_with|\.ends_with|\.substr|\.compare|\.find_first_of|\.find_first_not_of)\(|[!=]= *"'
patterns=(
  # the words of an error
  "(detail|ext_ack|message\(\)|what\(\))\)? *(${inspect})"
  # an op compared as text: a literal, a string_view, or its prefix or suffix
  '\bop\)? *[!=]= *"'
  '\bop\)?\.(starts_with|ends_with|find|compare)\('
  'string_view\([a-z_.]*\bop\)'
  'string_view op = [a-z_.]*\bop\b'
)
status=0
for pattern in "${patterns[@]}"; do
  hits=$(grep -rnE --include='*.cc' --include='*.h' "$pattern" src include bindings 2>/dev/null |
    grep -vE '^[^:]+:[0-9]+: *//' | grep -v 'error-text:' || true)
  if [[ -n "$hits" ]]; then
    echo "code that decides by an error's text (pattern: $pattern):" >&2
    echo "$hits" >&2
    status=1
  fi
done
exit $status
