// A component compiled in another language (locale-variants.ts): the same component, its text
// written in that language.
declare module '*.svelte?locale=zh-CN' {
	import type { Component } from 'svelte';
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props
	const component: Component<any>;
	export default component;
}
