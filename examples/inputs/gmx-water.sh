#!/bin/sh
# gmx-water.sh NSTEPS: writes topol.tpr in the current directory, a
# GROMACS run of 1,728 SPC waters (eight copies of an equilibrated box:
# no bad contacts), PME electrostatics, NSTEPS steps from a fixed seed.
# grompp's and genconf's output goes to gmx.out.
set -e
top=$(gmx_mpi -version 2>&1 | sed -n 's/^Data prefix: *//p')/share/gromacs/top
gmx_mpi -quiet genconf -f "$top/spc216.gro" -nbox 2 2 2 -o w.gro > gmx.out 2>&1
n=$(awk 'NR == 2 { print $1 / 3 }' w.gro)
printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spc.itp"\n[ system ]\nwater\n[ molecules ]\nSOL %s\n' "$n" > topol.top
printf '%s\n' integrator=md dt=0.002 nsteps="${1:?usage: gmx-water.sh NSTEPS}" \
    cutoff-scheme=Verlet coulombtype=PME rcoulomb=1.0 rvdw=1.0 nstlist=10 \
    nstcalcenergy=20 tcoupl=v-rescale tc-grps=System tau-t=0.1 ref-t=300 \
    constraints=h-bonds gen-vel=yes gen-temp=300 gen-seed=7 > md.mdp
gmx_mpi -quiet grompp -f md.mdp -c w.gro -p topol.top -o topol.tpr >> gmx.out 2>&1
