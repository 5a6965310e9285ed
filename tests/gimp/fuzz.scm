;; SPDX-License-Identifier: GPL-3.0-or-later
; A fuzz test of plug-in-cudablur through the PDB (run-fuzz-tests.sh runs
; it): random calls over fifteen kinds of drawable with every argument's
; edges (tiny, subnormal, huge, out of range, inf, NaN), from a fixed,
; printed seed.  Invariants:
;   - a call the checks must refuse is refused, its message names the
;     argument, and the drawable is byte-identical (GIMP itself refuses
;     non-finite floats before the plug-in runs, naming the argument);
;   - any other call succeeds, on the CPU or the GPU, and leaves every
;     pixel finite and inside the input's range (2e-3 for the recursive
;     filters' overshoot); sigmas too small to move a pixel leave it
;     byte-identical;
;   - nothing crashes: the resident process still serves at the end.
; Needs plugin-tests.scm loaded first (images and the helper's checks).

(define fz-state 1)
(define (fz-seed s) (set! fz-state (+ 1 (modulo s 2147483646))))
(define (fz-next)
  (set! fz-state (modulo (+ (* 1103515245 fz-state) 12345) 2147483648))
  (quotient fz-state 65536))
(define (fz-pick lst) (list-ref lst (modulo (fz-next) (length lst))))
; A valid value most of the time, so that successes are tested too.
(define (fz-mostly good any) (if (< (modulo (fz-next) 10) 7) (fz-pick good)
                                 (fz-pick any)))

(define fz-inf (exp 1000))
(define fz-nan (- fz-inf fz-inf))
(define fz-good-sigmas '(0.0 0.1 0.169 0.17 0.3 0.5 1.0 2.5 7.0 30.0 150.0))
(define fz-sigmas (list 0.0 -0.0 4.9e-324 1e-300 1e-162 1e-40 1500.0 1500.0001
                        -1e-300 -1.0 1e308 fz-inf (- fz-inf) fz-nan))
(define fz-good-ranges '(4.9e-324 1e-35 0.5 20.0 50.0 1000.0 1000.5 1e9))
(define fz-ranges (list 0.0 -5.0 1.000001e9 1e308 fz-inf fz-nan))
(define fz-good-iterations '(1 2 3 10))
(define fz-iterations '(-1 0 11 1000000 -2147483648))
(define fz-good-kappas '(0.0 4.9e-324 2.0 10.0))
(define fz-kappas (list -0.5 10.0001 fz-inf fz-nan))
(define fz-good-algorithms '(0 1 2 3 4 5 6))
(define fz-algorithms '(-1 7 2147483647 -2147483648))
(define fz-good-devices '(0 1 2))
(define fz-devices '(-1 3 77))
(define fz-good-borders '(0 1 2 3))
(define fz-borders '(-1 4 2147483647 -2147483648))
(define fz-good-spaces '(0 1))
(define fz-spaces '(-1 2 77))

(define (fz-nan? x) (not (= x x)))
(define (fz-sigma-bad? s) (or (fz-nan? s) (< s 0) (> s 1500)))
(define (fz-range-bad? r) (or (fz-nan? r) (not (> r 0)) (> r 1e9)))

(define (fz-finite? x) (and (= x x) (< (abs x) fz-inf)))

; What GIMP refuses before the plug-in runs, in any run mode: a float
; argument that is not finite (its message names the argument).
(define (fz-gimp-refuses sx sy r k)
  (cond ((not (fz-finite? sx)) "argument 'std-dev-x'")
        ((not (fz-finite? sy)) "argument 'std-dev-y'")
        ((not (fz-finite? r)) "argument 'range-sigma'")
        ((not (fz-finite? k)) "argument 'kappa'")
        (else #f)))

; The argument the plug-in's checks must name, in their order, or #f.
(define (fz-expected a sx sy r it k dev border space)
  (let ((edge (or (= a 5) (= a 6))))
    (cond ((or (< a 0) (> a 6)) "algorithm:")
          ((fz-sigma-bad? sx) "std-dev-x:")
          ((fz-sigma-bad? sy) "std-dev-y:")
          ((and edge (fz-range-bad? r)) "range-sigma:")
          ((and edge (or (< it 1) (> it 10))) "iterations:")
          ((and (= a 6) (or (fz-nan? k) (< k 0) (> k 10))) "kappa:")
          ((or (< dev 0) (> dev 2)) "device:")
          ((or (< border 0) (> border 3)) "edge-mode:")
          ((or (< space 0) (> space 1)) "blur-space:")
          (else #f))))

(define (fz-contains? text part)
  (let ((n (string-length text)) (m (string-length part)))
    (let loop ((i 0))
      (cond ((> (+ i m) n) #f)
            ((string=? (substring text i (+ i m)) part) #t)
            (else (loop (+ i 1)))))))

; (#t . result) or (#f . message): Script-Fu's error text, which holds the
; plug-in's message for a refused call.
(define (fz-try thunk)
  (call/cc
    (lambda (k)
      (let ((old *error-hook*))
        (set! *error-hook*
              (lambda (msg . args)
                (set! *error-hook* old)
                (k (cons #f (if (string? msg) msg "?")))))
        (let ((r (thunk)))
          (set! *error-hook* old)
          (cons #t r))))))

; The drawables: every base type and precision, odd and tiny sizes, a layer
; with offsets under a selection, a layer mask, a channel, the selection.
(define (fz-image file w h base precision alpha)
  (let ((img (cb-load file)))
    (gimp-image-scale-full img w h INTERPOLATION-LINEAR)
    (if (and (= base GRAY) (= (car (gimp-image-base-type img)) RGB))
        (gimp-image-convert-grayscale img))
    (if (and (= base RGB) (= (car (gimp-image-base-type img)) GRAY))
        (gimp-image-convert-rgb img))
    (cb-set-precision img precision)
    (if alpha
        (let ((layer (cb-layer img)))
          (gimp-layer-add-alpha layer)
          (gimp-image-select-ellipse img CHANNEL-OP-REPLACE (/ w 4) (/ h 4)
                                     (/ w 2) (/ h 2))
          (gimp-edit-clear layer)
          (gimp-selection-none img)))
    img))

(define (fz-drawables)
  (let* ((plain (list
           (list "RGB u8" (fz-image "coffee.ppm" 61 37 RGB PRECISION-U8-GAMMA #f))
           (list "RGBA u8" (fz-image "coffee.ppm" 64 48 RGB PRECISION-U8-GAMMA #t))
           (list "GRAY u8" (fz-image "camera.pgm" 45 33 GRAY PRECISION-U8-GAMMA #f))
           (list "GRAYA u16 linear" (fz-image "camera.pgm" 40 40 GRAY PRECISION-U16-LINEAR #t))
           (list "RGB u16 perceptual" (fz-image "astronaut.ppm" 53 29 RGB PRECISION-U16-GAMMA #f))
           (list "RGBA float linear" (fz-image "astronaut.ppm" 50 50 RGB PRECISION-FLOAT-LINEAR #t))
           (list "GRAY float perceptual" (fz-image "camera.pgm" 31 47 GRAY PRECISION-FLOAT-GAMMA #f))
           (list "RGBA half" (fz-image "coffee.ppm" 44 36 RGB PRECISION-HALF-GAMMA #t))
           (list "RGB u32" (fz-image "coffee.ppm" 39 41 RGB PRECISION-U32-LINEAR #f))
           (list "1x1 RGBA float" (fz-image "coffee.ppm" 1 1 RGB PRECISION-FLOAT-LINEAR #t))
           (list "1x37 GRAY u8" (fz-image "camera.pgm" 1 37 GRAY PRECISION-U8-GAMMA #f))
           (list "53x1 RGB u16" (fz-image "coffee.ppm" 53 1 RGB PRECISION-U16-LINEAR #f))))
         (host (fz-image "astronaut.ppm" 64 64 RGB PRECISION-U8-GAMMA #f))
         (offset (car (gimp-layer-new host 40 30 RGBA-IMAGE "offset" 100
                                      LAYER-MODE-NORMAL)))
         (chan (car (gimp-channel-new host 64 64 "chan" 50 '(0 0 255)))))
    (gimp-image-insert-layer host offset 0 0)
    (gimp-layer-set-offsets offset 20 25)
    (plug-in-plasma RUN-NONINTERACTIVE host offset 7 3.0)
    (gimp-image-insert-channel host chan 0 0)
    (gimp-image-select-ellipse host CHANNEL-OP-REPLACE 5 5 50 40)
    (gimp-edit-fill chan FILL-WHITE)
    (gimp-image-select-rectangle host CHANNEL-OP-REPLACE 10 12 40 35)
    ; The photograph's layer, under the new one.
    (let ((base (vector-ref (cadr (gimp-image-get-layers host)) 1)))
      (gimp-layer-add-alpha base)
      (let ((mask (car (gimp-layer-create-mask base ADD-MASK-COPY))))
        (gimp-layer-add-mask base mask)
        (append (map (lambda (e) (list (car e) (cadr e) (cb-layer (cadr e)))) plain)
                (list (list "layer with offsets, selection" host offset)
                      (list "layer mask, selection" host mask)
                      (list "channel, selection" host chan)))))))

(define fz-passed 0)
(define fz-failed 0)
(define fz-refusals 0)
(define fz-blurs 0)
(define fz-untouched 0)
(define (fz-report ok what)
  (if ok (set! fz-passed (+ fz-passed 1))
      (begin (set! fz-failed (+ fz-failed 1))
             (gimp-message (string-append "FAIL: " what)))))

(define (fz-num x) (number->string x))

(define (fz-call i targets)
  (let* ((t (fz-pick targets))
         (label (car t)) (img (cadr t)) (d (caddr t))
         (mode (fz-pick (list RUN-NONINTERACTIVE RUN-NONINTERACTIVE
                              RUN-NONINTERACTIVE RUN-NONINTERACTIVE
                              RUN-WITH-LAST-VALS RUN-INTERACTIVE)))
         (a (fz-mostly fz-good-algorithms fz-algorithms))
         (sx (fz-mostly fz-good-sigmas fz-sigmas))
         (sy (if (< (modulo (fz-next) 3) 1) sx
                 (fz-mostly fz-good-sigmas fz-sigmas)))
         (r (fz-mostly fz-good-ranges fz-ranges))
         (it (fz-mostly fz-good-iterations fz-iterations))
         (k (fz-mostly fz-good-kappas fz-kappas))
         (dev (fz-mostly fz-good-devices fz-devices))
         ; Half the calls go through plug-in-cudablur-full.
         (full (= (modulo (fz-next) 2) 1))
         (border (if full (fz-mostly fz-good-borders fz-borders) 0))
         (space (if full (fz-mostly fz-good-spaces fz-spaces) 0))
         (expect (or (fz-gimp-refuses sx sy r k)
                     (if (= mode RUN-NONINTERACTIVE)
                         (fz-expected a sx sy r it k dev border space) #f)))
         (what (string-append "call " (fz-num i) " on " label ": mode "
                              (fz-num mode) (if full " full (" " (")
                              (fz-num a) " " (fz-num sx)
                              " " (fz-num sy) " " (fz-num r) " " (fz-num it)
                              " " (fz-num k) " " (fz-num dev)
                              (if full (string-append " " (fz-num border) " "
                                                      (fz-num space))
                                  "")
                              ")")))
    (cb-snap img d)
    (let ((out (fz-try (lambda ()
                         (if full
                             (plug-in-cudablur-full mode img d a sx sy r it k
                                                    dev border space)
                             (plug-in-cudablur mode img d a sx sy r it k
                                               dev))))))
      (cond
        (expect
          (set! fz-refusals (+ fz-refusals 1))
          (fz-report (and (not (car out)) (fz-contains? (cdr out) expect))
                     (string-append what ": want a refusal naming " expect
                                    ", got "
                                    (if (car out) "success" (cdr out))))
          (fz-report (= 1 (car (plug-in-cudablur-test-verify
                                 RUN-NONINTERACTIVE img d
                                 (string-append cb-tmp "/snapshot") 1 0 0 0
                                 "fuzz")))
                     (string-append what ": changed the drawable")))
        ((not (car out))
         (fz-report #f (string-append what ": refused: " (cdr out))))
        (else
          (let* ((used (car (cdr out)))
                 (still (and (= mode RUN-NONINTERACTIVE)
                             (< (abs sx) 0.17) (< (abs sy) 0.17)))
                 ; Interactive and last-values calls may carry any stored
                 ; border or space: the widened range covers them.
                 (plain (and (= mode RUN-NONINTERACTIVE) (= border 0)
                             (= space 0)))
                 (check (plug-in-cudablur-test-verify
                          RUN-NONINTERACTIVE img d
                          (string-append cb-tmp "/snapshot")
                          (if still 1 (if plain 3 4)) 0 0 0 "fuzz")))
            (if still (set! fz-untouched (+ fz-untouched 1))
                (set! fz-blurs (+ fz-blurs 1)))
            (fz-report (or (= used 1) (= used 2))
                       (string-append what ": device-used " (fz-num used)))
            (fz-report (= 1 (car check))
                       (string-append what ": " (cadr check)))))))))

(define (cudablur-fuzz tmp data seed calls)
  (set! cb-tmp tmp)
  (set! cb-data data)
  (fz-seed seed)
  (gimp-message (string-append "fuzz: seed " (fz-num seed) ", "
                               (fz-num calls) " calls"))
  (let ((targets (fz-drawables)))
    (let loop ((i 0))
      (if (< i calls)
          (begin (fz-call i targets) (loop (+ i 1))))))
  ; Still served by the resident process: nothing crashed it.
  (let ((type (list-ref (gimp-procedural-db-proc-info "plug-in-cudablur") 5)))
    (fz-report (= type 3)   ; GIMP_TEMPORARY
               "the resident process no longer serves plug-in-cudablur"))
  (gimp-message (string-append "fuzz: " (fz-num fz-refusals) " refused, "
                               (fz-num fz-blurs) " blurred, "
                               (fz-num fz-untouched) " with sigmas too small "
                               "to move a pixel"))
  (gimp-message (string-append "fuzz: " (fz-num fz-passed) " passed, "
                               (fz-num fz-failed) " failed")))
