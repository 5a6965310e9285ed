;; SPDX-License-Identifier: GPL-3.0-or-later
;; GIMP 3's batch tests of the operation and the procedures (run by
;; run-gimp3-tests.sh).  Each case saves its input and its result and
;; writes a line to the manifest, which check_blur then checks outside
;; GIMP:  NAME IN OUT ALGORITHM SX SY RANGE ITERATIONS KAPPA EDGE SPACE SEL
;; (SEL: x,y,w,h of a rectangle selection, or "-"); an ALGORITHM of
;; "unchanged" asks for OUT equal to IN.  Our procedures are called with
;; named arguments (#:std-dev-x 8.0), as GIMP 3 asks, except in
;; case-positional, which keeps the order of GIMP 2.10's arguments
;; working.

(define out-dir "")
(define manifest '())

(define (note . fields)
  (set! manifest (cons (unbreakupstr fields " ") manifest)))

(define (num x) (number->string x))

(define (load-photo data)
  (car (gimp-file-load RUN-NONINTERACTIVE
                       (string-append data "/coffee.ppm"))))

(define (first-drawable img)
  (vector-ref (car (gimp-image-get-selected-drawables img)) 0))

(define (save img name)
  (let ((path (string-append out-dir "/" name)))
    (gimp-file-save RUN-NONINTERACTIVE img path)
    path))

;; One blur through plug-in-cudablur-full on a fresh photograph.
(define (case-full data name ext prepare algorithm sx sy range iterations
                   kappa device edge space sel)
  (let* ((img (load-photo data))
         (d (first-drawable img)))
    (prepare img d)
    (let ((in (save img (string-append name "-in." ext))))
      (if (not (equal? sel "-"))
          (let ((r (map string->number (strbreakup sel ","))))
            (gimp-image-select-rectangle img CHANNEL-OP-REPLACE
                                         (car r) (cadr r) (caddr r)
                                         (cadddr r))))
      (plug-in-cudablur-full #:run-mode RUN-NONINTERACTIVE #:image img
                             #:drawables (vector d) #:algorithm algorithm
                             #:std-dev-x sx #:std-dev-y sy
                             #:range-sigma range #:iterations iterations
                             #:kappa kappa #:device device #:edge-mode edge
                             #:blur-space space)
      (gimp-selection-none img)
      (note name in (save img (string-append name "-out." ext))
            (num algorithm) (num sx) (num sy) (num range) (num iterations)
            (num kappa) (num edge) (num space) sel))
    (gimp-image-delete img)))

(define (no-change img d) #t)

;; A transparent hole, black under its zero alpha as the PNG stores it
;; (the engine's alpha floor lets a transparent pixel's colour weigh a
;; little).
(define (with-hole img d)
  (gimp-layer-add-alpha d)
  (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 200 100 180 140)
  (gimp-context-set-foreground '(0 0 0))
  (gimp-drawable-edit-fill d FILL-FOREGROUND)
  (gimp-drawable-edit-clear d)
  (gimp-selection-none img))

(define (to-u16 img d) (gimp-image-convert-precision img PRECISION-U16-NON-LINEAR))
(define (to-float img d) (gimp-image-convert-precision img PRECISION-FLOAT-LINEAR))

;; The message of the error THUNK raises, or #f (catch would drop it).
(define (error-of thunk)
  (let ((saved *error-hook*) (message #f))
    (call/cc (lambda (k)
               (set! *error-hook*
                     (lambda (text . objects) (set! message text) (k #f)))
               (thunk)))
    (set! *error-hook* saved)
    message))

;; A call that must be refused, naming its argument in GIMP's log, and
;; leave the drawable as it was.  ARGS: named arguments after the
;; drawables.
(define (case-refused data name . args)
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (in (save img (string-append name "-in.png"))))
    (gimp-message
      (string-append
        "refused: "
        (or (error-of
              (lambda ()
                (apply plug-in-cudablur-full
                       (append (list #:run-mode RUN-NONINTERACTIVE
                                     #:image img #:drawables (vector d))
                               args))))
            (string-append name " was not refused"))))
    (note name in (save img (string-append name "-out.png"))
          "unchanged" "0" "0" "0" "0" "0" "0" "0" "-")
    (gimp-image-delete img)))

;; The operation appended as a non-destructive filter, kept through an
;; .xcf saved and opened again, then merged.
(define (case-non-destructive data)
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (in (save img "xcf-in.png"))
         (xcf (string-append out-dir "/filtered.xcf")))
    (gimp-drawable-append-new-filter d "cudablur:gaussian-blur" ""
                                     LAYER-MODE-REPLACE 1.0
                                     "algorithm" "deriche"
                                     "std-dev-x" 7.0 "std-dev-y" 7.0
                                     "device" "cpu")
    (gimp-xcf-save RUN-NONINTERACTIVE img xcf)
    (gimp-image-delete img)
    (let* ((img2 (car (gimp-xcf-load RUN-NONINTERACTIVE xcf)))
           (d2 (first-drawable img2))
           (filters (car (gimp-drawable-get-filters d2))))
      (gimp-message (string-append "xcf: filters after opening: "
                                   (num (vector-length filters))))
      (gimp-drawable-merge-filters d2)
      (note "xcf" in (save img2 "xcf-out.png") "4" "7" "7" "50" "2" "2"
            "0" "0" "-")
      (gimp-image-delete img2))))

;; Two layers in one call: both blurred.
(define (case-two-layers data)
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (copy (car (gimp-layer-copy d))))
    (gimp-image-insert-layer img copy 0 0)
    (let ((in (save img "two-in.png")))
      (plug-in-cudablur #:run-mode RUN-NONINTERACTIVE #:image img
                        #:drawables (vector d copy) #:algorithm 1
                        #:std-dev-x 4.0 #:std-dev-y 4.0 #:device 2)
      (gimp-image-remove-layer img copy)
      (note "two-bottom" in (save img "two-bottom-out.png") "1" "4" "4"
            "50" "2" "2" "0" "0" "-"))
    (gimp-image-delete img)))

;; The arguments in their order, as GIMP 2.10's scripts pass them: still
;; run (GIMP 3.0.4 and 3.2 warn that the form is deprecated).
(define (case-positional data)
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (in (save img "positional-in.png")))
    (plug-in-cudablur RUN-NONINTERACTIVE img (vector d) 4 7.0 3.0 50.0 2 2.0 2)
    (note "positional" in (save img "positional-out.png") "4" "7" "3" "50"
          "2" "2" "0" "0" "-")
    (gimp-image-delete img)))

(define (cudablur3-run-tests dir data)
  (set! out-dir dir)
  (let loop ((a 0))
    (if (< a 7)
        (begin
          (case-full data (string-append "algorithm" (num a)) "png" no-change
                     a 6.0 6.0 50.0 2 2.0 2 0 0 "-")
          (loop (+ a 1)))))
  (case-full data "alpha-none" "png" with-hole 4 8.0 8.0 50.0 2 2.0 2 1 0 "-")
  (case-full data "alpha-white" "png" with-hole 1 5.0 3.0 50.0 2 2.0 2 3 0 "-")
  (case-full data "perceptual" "png" no-change 4 5.0 5.0 50.0 2 2.0 2 0 1 "-")
  (case-full data "u16" "png" to-u16 1 4.0 4.0 50.0 2 2.0 2 0 0 "-")
  (case-full data "float" "tif" to-float 4 10.0 10.0 50.0 2 2.0 2 0 0 "-")
  (case-full data "selection" "png" no-change 4 9.0 9.0 50.0 2 2.0 2 0 0
             "150,80,220,160")
  (case-full data "tiny-sigma" "png" no-change 1 0.1 0.1 50.0 2 2.0 2 0 0 "-")
  (case-refused data "bad-algorithm" #:algorithm 9)
  (case-refused data "bad-sigma" #:algorithm 1 #:std-dev-x -1.0)
  (case-refused data "bad-sigma-big" #:algorithm 1 #:std-dev-y 1501.0)
  (case-refused data "bad-range" #:algorithm 5 #:range-sigma 0.0)
  (case-refused data "bad-iterations" #:algorithm 5 #:iterations 11)
  (case-refused data "bad-kappa" #:algorithm 6 #:kappa 10.5)
  (case-refused data "bad-device" #:algorithm 1 #:device 3)
  (case-refused data "bad-edge" #:algorithm 1 #:edge-mode 4)
  (case-refused data "bad-space" #:algorithm 1 #:blur-space 2)
  (case-non-destructive data)
  (case-two-layers data)
  (case-positional data)
  (let ((port (open-output-file (string-append out-dir "/manifest.txt"))))
    (for-each (lambda (line) (display line port) (newline port))
              (reverse manifest))
    (close-output-port port))
  (gimp-message "cudablur3: cases written"))
