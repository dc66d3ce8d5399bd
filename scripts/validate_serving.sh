#!/usr/bin/env bash
# Predicts the published serving figures of validation/inference/serving/cases.tsv with
# `gpufabric infer --format json` and prints predicted vs measured (docs/inference.md,
# "Accuracy: serving benchmarks"). Every row is held out: nothing in the model was fitted to them.
# A row's optional 12th column holds the engine's kernels as infer flags (cases.tsv says which).
#
#   scripts/validate_serving.sh [path/to/gpufabric] [--format text|tsv]
#
# Derived figures (the same arithmetic the sources' benchmarks do, see each source file):
#   e2e_ms    = TTFT + (output - 1) x TPOT        (one batch, every sequence the same lengths)
#   tok_s     = batch x output / e2e
#   tok_s_gpu = tok_s / TP
# Exit 1 when a row cannot be predicted (gpufabric's own exit status otherwise shows the error).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="$here/build/cli/gpufabric"
fmt=text
while [ $# -gt 0 ]; do
  case "$1" in
    --format) fmt="${2:?--format needs text or tsv}"; shift 2 ;;
    *) bin="$1"; shift ;;
  esac
done
case "$fmt" in text|tsv) ;; *) echo "validate_serving: --format is text or tsv, got '$fmt'" >&2; exit 1 ;; esac
dir="$here/validation/inference/serving"
command -v jq >/dev/null || { echo "validate_serving: needs jq" >&2; exit 1; }

rows=0
sum_abs=0
if [ "$fmt" = text ]; then
  printf '%-30s %-9s %-11s %3s %5s %6s %6s %-5s %-9s %12s %12s %8s\n' \
    id cluster model tp batch prompt output dtype metric predicted measured error
fi
errs=()
while IFS=$'\t' read -r id src cluster model tp batch prompt output dtype metric measured flags; do
  case "$id" in ''|'#'*) continue ;; esac
  [ -f "$dir/$src" ] || { echo "validate_serving: $id: source file $src missing" >&2; exit 1; }
  m="$model"
  [ -f "$dir/$model" ] && m="$dir/$model"
  json="$("$bin" infer --cluster "$cluster" --model "$m" --tp "$tp" --batch "$batch" \
            --prompt "$prompt" --output "$output" --dtype "$dtype" ${flags:-} --format json)" ||
    { echo "validate_serving: $id: gpufabric infer failed" >&2; exit 1; }
  pred="$(jq -r --arg metric "$metric" --argjson b "$batch" --argjson o "$output" --argjson tp "$tp" '
      (.ttft_s + ($o - 1) * .tpot_s) as $e2e
      | if $metric == "ttft_ms" then .ttft_s * 1000
        elif $metric == "tpot_ms" then .tpot_s * 1000
        elif $metric == "e2e_ms" then $e2e * 1000
        elif $metric == "tok_s" then $b * $o / $e2e
        elif $metric == "tok_s_gpu" then $b * $o / $e2e / $tp
        else error("unknown metric " + $metric) end' <<<"$json")" ||
    { echo "validate_serving: $id: unknown metric '$metric'" >&2; exit 1; }
  err="$(awk -v p="$pred" -v m="$measured" 'BEGIN { printf "%+.1f", (p - m) / m * 100 }')"
  errs+=("$err")
  rows=$((rows + 1))
  model_name="$(basename "$model" .yaml)"
  if [ "$fmt" = tsv ]; then
    printf '%s\t%s\t%s\t%s\n' "$id" "$(printf '%.4g' "$pred")" "$measured" "$err"
  else
    printf '%-30s %-9s %-11s %3s %5s %6s %6s %-5s %-9s %12.4g %12s %7s%%\n' \
      "$id" "$cluster" "$model_name" "$tp" "$batch" "$prompt" "$output" "$dtype" "$metric" \
      "$pred" "$measured" "$err"
  fi
done <"$dir/cases.tsv"
[ "$rows" -gt 0 ] || { echo "validate_serving: no rows in $dir/cases.tsv" >&2; exit 1; }
# Median of |error|: the rows are few and skewed, so the median says more than the mean.
median="$(printf '%s\n' "${errs[@]}" | tr -d '+-' | sort -g | awk '{ a[NR] = $1 } END {
  if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }')"
within20="$(printf '%s\n' "${errs[@]}" | tr -d '+-' | awk '$1 <= 20 { n++ } END { print n + 0 }')"
echo "rows: $rows (held out), median |error| ${median} %, within 20 %: $within20"
