/** The one page the click address shows: a link that does not exist. Nothing of the request is in it. */
export function unknownLinkPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Link not found</title>
</head>
<body>
<h1>This link does not exist</h1>
<p>The link may have been mistyped or copied only in part. Ask whoever shared it for the full address.</p>
</body>
</html>
`;
}
