set terminal pngcairo size 760,440
set output 'lee1999-life-latency.png'
set title 'LIFE, 64 cells: runtime vs latency (Lee 1999, Fig. 7-11); dashed: LOG model' noenhanced
set xlabel 'added latency (cycles)'
set ylabel 'thousands of cycles for 1000 generations'
set key outside right
plot 'lee1999-life-latency.dat' using 1:($2/1000) with lines dt 2 lc 1 title 'model P=4', 'lee1999-life-latency.dat' using 1:($3/1000) with linespoints lc 1 pt 7 title 'tilempi P=4', 'lee1999-life-latency.dat' using 1:($4/1000) with lines dt 2 lc 2 title 'model P=16', 'lee1999-life-latency.dat' using 1:($5/1000) with linespoints lc 2 pt 7 title 'tilempi P=16', 'lee1999-life-latency.dat' using 1:($6/1000) with lines dt 2 lc 3 title 'model P=64', 'lee1999-life-latency.dat' using 1:($7/1000) with linespoints lc 3 pt 7 title 'tilempi P=64', 2240 with lines lc rgb 'gray' title 'one node'
