; A straight waveguide (Meep's tutorial), a continuous source, PML: meep wg.ctl
(set! geometry-lattice (make lattice (size 16 8 no-size)))
(set! geometry (list (make block (center 0 0) (size infinity 1 infinity)
                      (material (make medium (epsilon 12))))))
(set! sources (list (make source (src (make continuous-src (frequency 0.15)))
                     (component Ez) (center -7 0))))
(set! pml-layers (list (make pml (thickness 1.0))))
(set! resolution 10)
(run-until 50)
