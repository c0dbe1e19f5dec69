// A component compiled in another language (locale-variants.ts): the same component, its text
// written in that language.
declare module '*.svelte?locale=zh-CN' {
	import type { Component } from 'svelte';
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props
	const component: Component<any>;
	export default component;
}

// An area's catalogue in the importer's language: every message whose key starts with the area.
declare module 'virtual:messages/*' {
	import type { Text } from '$lib/i18n/text';
	export function render(text: Text): string;
}
