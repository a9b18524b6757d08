"""The operator's own files and words: the facts it stands behind, who it is, its social links and
its customers' testimonials."""
