// A text module compiled in another language (src/lib/i18n/locale-variants.ts): the same exports,
// its messages written in that language.
declare module '$lib/snippets/languages?locale=zh-CN' {
	export * from '$lib/snippets/languages';
}
