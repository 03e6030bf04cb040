set terminal pngcairo size 760,440
set output 'lee1999-life-occupancy.png'
set title 'LIFE, 64 cells: runtime vs occupancy (Lee 1999, Fig. 7-13); dashed: LOG model' noenhanced
set xlabel 'added occupancy per message (cycles)'
set ylabel 'thousands of cycles for 1000 generations'
set key outside right
plot 'lee1999-life-occupancy.dat' using 1:($2/1000) with lines dt 2 lc 1 title 'model P=4', 'lee1999-life-occupancy.dat' using 1:($3/1000) with linespoints lc 1 pt 7 title 'tilempi P=4', 'lee1999-life-occupancy.dat' using 1:($4/1000) with lines dt 2 lc 2 title 'model P=16', 'lee1999-life-occupancy.dat' using 1:($5/1000) with linespoints lc 2 pt 7 title 'tilempi P=16', 'lee1999-life-occupancy.dat' using 1:($6/1000) with lines dt 2 lc 3 title 'model P=64', 'lee1999-life-occupancy.dat' using 1:($7/1000) with linespoints lc 3 pt 7 title 'tilempi P=64', 2240 with lines lc rgb 'gray' title 'one node'
