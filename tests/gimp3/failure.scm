;; SPDX-License-Identifier: GPL-3.0-or-later
;; GIMP 3 with the operation unable to blur (GB_HOST_FAULT=alloc, run by
;; run-gimp3-tests.sh after tests.scm is loaded): plug-in-cudablur fails
;; with the reason and leaves the drawable as it was; a plain merge of the
;; operation, which GIMP gives no way to fail, leaves it as it was too,
;; and GIMP shows the operation's message.  The manifest's lines ask
;; check_blur for results equal to their inputs.

(define (cudablur3-run-failure dir data)
  (set! out-dir dir)
  (set! manifest '())
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (in (save img "fail-plugin-in.png")))
    (catch (gimp-message "failure: plug-in-cudablur-full failed")
      (begin
        (plug-in-cudablur-full #:run-mode RUN-NONINTERACTIVE #:image img
                               #:drawables (vector d) #:algorithm 4
                               #:std-dev-x 6.0 #:std-dev-y 6.0 #:device 2)
        (gimp-message "failure: plug-in-cudablur-full succeeded")))
    (note "fail-plugin" in (save img "fail-plugin-out.png")
          "unchanged" "0" "0" "0" "0" "0" "0" "0" "-")
    (gimp-image-delete img))
  (let* ((img (load-photo data))
         (d (first-drawable img))
         (in (save img "fail-merge-in.png")))
    (gimp-drawable-merge-new-filter d "cudablur:gaussian-blur" 0
                                    LAYER-MODE-REPLACE 1.0
                                    "algorithm" "deriche"
                                    "std-dev-x" 6.0 "std-dev-y" 6.0
                                    "device" "cpu")
    (gimp-message "failure: the merge returned")
    (note "fail-merge" in (save img "fail-merge-out.png")
          "unchanged" "0" "0" "0" "0" "0" "0" "0" "-")
    (gimp-image-delete img))
  (let ((port (open-output-file (string-append out-dir "/manifest.txt"))))
    (for-each (lambda (line) (display line port) (newline port))
              (reverse manifest))
    (close-output-port port))
  (gimp-message "cudablur3: failure cases written"))

;; The same call outside catch, as the last batch command: GIMP prints the
;; error a failed batch command returns, with its reason (GIMP 3.2 prints
;; nothing of a call that catch took).
(define (cudablur3-fail-uncaught data)
  (let* ((img (load-photo data))
         (d (first-drawable img)))
    (plug-in-cudablur-full #:run-mode RUN-NONINTERACTIVE #:image img
                           #:drawables (vector d) #:algorithm 4
                           #:std-dev-x 6.0 #:std-dev-y 6.0 #:device 2)))
