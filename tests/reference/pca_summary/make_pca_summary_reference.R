# R's printed summary(prcomp(x)) for a rank-deficient x (third column = a + b), whose last
# component SD is rounding noise (~4e-16): R prints that column in scientific notation.
# Run from this directory:  Rscript make_pca_summary_reference.R
source("../json_writer.R")
x <- cbind(a = c(1, 2, 3, 4, 5, 7), b = c(2, 1, 4, 3, 6, 5))
x <- cbind(x, c = x[, 1] + x[, 2])
p <- prcomp(x)
printed <- capture.output(print(summary(p)))
writeLines(to_json(list(r_version = R.version.string, sdev = p$sdev, printed = printed)),
           "pca_summary_reference.json")
