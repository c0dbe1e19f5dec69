// The root page in each language is a folder's index (index.html, zh-CN/index.html): GitHub Pages
// serves /zh-CN/ from it and redirects /zh-CN there.
export const trailingSlash = 'always';
