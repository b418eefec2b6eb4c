# Reference numbers from R's prcomp() and kmeans() for the PCA and KMeans tests.
#
# Run from this directory:
#
#     cd tests/reference/unsupervised && Rscript make_pca_kmeans_reference.R
#
# Requires R with packages stats, datasets and jsonlite (Debian: r-cran-jsonlite).
#
# Produces, in the current directory:
#   usarrests.csv          USArrests (50 x 4), 17 significant digits.
#   kmeans_data.csv        a fixed 2-D data set of 3 Gaussian blobs (90 x 2), 17 digits.
#   pca_kmeans_reference.json
#     pca_unscaled / pca_scaled: prcomp(x, scale. = FALSE / TRUE): sdev, rotation (row-major,
#       p x p), x (scores, row-major, n x p), center, scale, and the summary importance matrix.
#     kmeans_lloyd: kmeans(x, centers = x[init_rows, ], algorithm = "Lloyd", iter.max = 100):
#       init_rows (1-based), centers (row-major), cluster (1-based), tot.withinss, iter.
#   Every double is written with sprintf("%.17g") (as a JSON number); the fits use the data
#   read back from the CSV files, so R and the Python tests see the same doubles.

options(warn = 1)
library(jsonlite)

num <- function(x) I(sprintf("%.17g", as.numeric(x)))
write17 <- function(df, file) {
  out <- as.data.frame(lapply(df, function(col) sprintf("%.17g", col)))
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file)
  stopifnot(identical(unname(as.matrix(back)), unname(as.matrix(df))))
  back
}

arrests <- write17(data.frame(datasets::USArrests), "usarrests.csv")
x <- as.matrix(arrests)

pca_case <- function(scale) {
  fit <- prcomp(x, scale. = scale)
  list(
    scale = scale,
    sdev = num(fit$sdev),
    rotation = num(t(fit$rotation)),  # row-major p x p (t() so that as.numeric is row-major)
    scores = num(t(fit$x)),
    center = num(fit$center),
    scale_values = if (isFALSE(fit$scale)) NULL else num(fit$scale),
    importance = num(t(summary(fit)$importance)),
    summary_text = paste(capture.output(print(summary(fit))), collapse = "\n")
  )
}

set.seed(20261126)
centres <- rbind(c(0, 0), c(4, 0), c(2, 3.5))
blob <- rep(1:3, each = 30)
km_data <- centres[blob, ] + matrix(rnorm(180, sd = 0.9), ncol = 2)
km_data <- write17(data.frame(x1 = km_data[, 1], x2 = km_data[, 2]), "kmeans_data.csv")
km_x <- as.matrix(km_data)
init_rows <- c(1L, 2L, 3L)  # three points of the first blob: Lloyd has to move them far
km <- kmeans(km_x, centers = km_x[init_rows, ], algorithm = "Lloyd", iter.max = 100)

ref <- list(
  r_version = R.version.string,
  packages = list(stats = as.character(packageVersion("stats")),
                  jsonlite = as.character(packageVersion("jsonlite"))),
  pca_unscaled = pca_case(FALSE),
  pca_scaled = pca_case(TRUE),
  kmeans_lloyd = list(
    init_rows = init_rows,
    centers = num(t(km$centers)),
    cluster = as.integer(km$cluster),
    tot_withinss = num(km$tot.withinss),
    iter = km$iter
  )
)
json <- toJSON(ref, auto_unbox = TRUE, pretty = TRUE, digits = NA, null = "null")
# the %.17g strings become JSON numbers
json <- gsub("\"(-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?)\"", "\\1", json)
writeLines(json, "pca_kmeans_reference.json")
