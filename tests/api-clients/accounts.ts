// The accounts the API clients' runners are tested against (fixture.ts starts the sandbox server
// with them; the end-to-end test gives them to the built sandbox-server.mjs as --accounts). No
// imports: Playwright loads this file too, without the project's aliases.
export const ACCOUNTS = [
	{
		kid: 'client-kid-profile-0001',
		mac_key: 'client-mac-key-profile-Xy7',
		client_id: 'client-app-0001',
		scopes: ['basic_info', 'public_profile']
	},
	{
		kid: 'client-kid-basic-0002',
		mac_key: 'client-mac-key-basic-Qz4',
		client_id: 'client-app-0001',
		scopes: ['basic_info']
	},
	{
		kid: 'client-kid-encoded-0003',
		mac_key: 'client-mac-key-encoded-Rk2',
		client_id: "app 'é 1",
		scopes: ['basic_info', 'public_profile']
	}
] as const;
