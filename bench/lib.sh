# Shared helpers for benchmarks: medians and ratios.
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) {print "nan"; exit} if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# ratio A B: A/B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "nan"; else printf "%.2f\n", a / b }'; }
