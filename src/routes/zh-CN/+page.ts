// /zh-CN/ is a folder's index (zh-CN/index.html), as the English root is: GitHub Pages serves
// /zh-CN/ from it and redirects /zh-CN there.
export const trailingSlash = 'always';
