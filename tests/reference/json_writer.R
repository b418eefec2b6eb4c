# Minimal JSON writer in base R (numbers with 17 significant digits), shared by
# the make_*_reference.R scripts in the subdirectories. Each script sources it
# as "../json_writer.R", so run the scripts from their own directory, as their
# READMEs say.
#
# Missing values (NA, and non-finite doubles) are written as null.

json_string <- function(s) {
  s <- enc2utf8(s)
  s <- gsub("\\", "\\\\", s, fixed = TRUE)
  s <- gsub("\"", "\\\"", s, fixed = TRUE)
  s <- gsub("\n", "\\n", s, fixed = TRUE)
  s <- gsub("\r", "\\r", s, fixed = TRUE)
  s <- gsub("\t", "\\t", s, fixed = TRUE)
  if (any(grepl("[\001-\037]", s))) stop("unexpected control character in string")
  paste0("\"", s, "\"")
}

json_scalar <- function(x) {
  if (is.character(x) || is.factor(x)) {
    x <- as.character(x)
    return(ifelse(is.na(x), "null", json_string(x)))
  }
  if (is.logical(x)) return(ifelse(is.na(x), "null", ifelse(x, "true", "false")))
  if (is.integer(x)) return(ifelse(is.na(x), "null", sprintf("%d", x)))
  if (is.numeric(x)) return(ifelse(is.finite(x), sprintf("%.17g", x), "null"))
  stop("cannot serialise value of class ", class(x)[1])
}

# Atomic vectors of length 1 are scalars unless wrapped in I(); all other
# atomic vectors are arrays. Named lists are objects, unnamed lists arrays.
to_json <- function(x, indent = 0L) {
  pad <- strrep("  ", indent + 1L)
  if (is.null(x)) return("null")
  if (is.list(x)) {
    if (length(x) == 0L) return(if (is.null(names(x))) "[]" else "{}")
    parts <- vapply(x, to_json, character(1), indent = indent + 1L)
    if (!is.null(names(x))) {
      items <- paste0(pad, json_string(names(x)), ": ", parts)
      return(paste0("{\n", paste(items, collapse = ",\n"), "\n",
                    strrep("  ", indent), "}"))
    }
    return(paste0("[\n", paste0(pad, parts, collapse = ",\n"), "\n",
                  strrep("  ", indent), "]"))
  }
  if (length(x) == 1L && !inherits(x, "AsIs")) return(json_scalar(unclass(x)))
  paste0("[", paste(json_scalar(unclass(x)), collapse = ", "), "]")
}

# Matrix -> unnamed list of row arrays.
rows_of <- function(m) lapply(seq_len(nrow(m)), function(i) I(unname(m[i, ])))

# A data frame of numbers written as CSV with 17 significant digits, read back and checked,
# so that R and the tests see the same doubles; returns the data read back.
write_csv17 <- function(d, file) {
  out <- d
  for (nm in names(out)) out[[nm]] <- sprintf("%.17g", as.double(out[[nm]]))
  write.csv(out, file, row.names = FALSE, quote = FALSE)
  back <- read.csv(file)
  for (nm in names(d)) stopifnot(identical(as.double(back[[nm]]), as.double(d[[nm]])))
  back
}
