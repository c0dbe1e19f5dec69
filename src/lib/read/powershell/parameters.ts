export interface ParameterSpec {
	name: string;
	switch: boolean;
}

// The parameters of Invoke-WebRequest and Invoke-RestMethod (PowerShell 5.1 to 7.5) and the common
// ones, so that an abbreviation (-Meth) resolves and a switch does not take the next word as its value.
const SWITCHES =
	'UseBasicParsing AllowUnencryptedAuthentication UseDefaultCredentials SkipCertificateCheck ' +
	'DisableKeepAlive SkipHeaderValidation AllowInsecureRedirect PreserveAuthorizationOnRedirect ' +
	'PreserveHttpMethodOnRedirect NoProxy ProxyUseDefaultCredentials PassThru Resume ' +
	'SkipHttpErrorCheck FollowRelLink Verbose Debug';
const WITH_VALUE =
	'Uri HttpVersion WebSession SessionVariable Authentication Credential CertificateThumbprint ' +
	'Certificate SslProtocol Token UserAgent TimeoutSec ConnectionTimeoutSeconds ' +
	'OperationTimeoutSeconds Headers MaximumRedirection MaximumRetryCount RetryIntervalSec Method ' +
	'CustomMethod UnixSocket Proxy ProxyCredential Body Form ContentType TransferEncoding InFile ' +
	'OutFile MaximumFollowRelLink ResponseHeadersVariable StatusCodeVariable ErrorAction ' +
	'WarningAction InformationAction ProgressAction ErrorVariable WarningVariable ' +
	'InformationVariable OutVariable OutBuffer PipelineVariable';
const PARAMETERS: ParameterSpec[] = [
	...SWITCHES.split(' ').map((name) => ({ name, switch: true })),
	...WITH_VALUE.split(' ').map((name) => ({ name, switch: false }))
];
// Maps, not objects: a name such as -__proto__ or -Method constructor must find nothing.
const ALIASES = new Map(
	Object.entries({
		sv: 'SessionVariable',
		cm: 'CustomMethod',
		fl: 'FollowRelLink',
		ml: 'MaximumFollowRelLink',
		rhv: 'ResponseHeadersVariable',
		vb: 'Verbose',
		db: 'Debug',
		ea: 'ErrorAction',
		wa: 'WarningAction',
		infa: 'InformationAction',
		proga: 'ProgressAction',
		ev: 'ErrorVariable',
		wv: 'WarningVariable',
		iv: 'InformationVariable',
		ov: 'OutVariable',
		ob: 'OutBuffer',
		pv: 'PipelineVariable'
	})
);

/** The parameter a name (any case, or an unambiguous start of one, as PowerShell allows) stands for. */
export function resolveParameter(written: string): ParameterSpec | undefined {
	const lower = written.toLowerCase();
	const alias = ALIASES.get(lower)?.toLowerCase();
	const exact = PARAMETERS.find((spec) => spec.name.toLowerCase() === (alias ?? lower));
	if (exact) return exact;
	const candidates = PARAMETERS.filter((spec) => spec.name.toLowerCase().startsWith(lower));
	return candidates.length === 1 ? candidates[0] : undefined;
}

// -Method takes these (any case); -CustomMethod any other, upper-cased.
export const METHODS = new Map(
	Object.entries({
		default: 'GET',
		get: 'GET',
		head: 'HEAD',
		post: 'POST',
		put: 'PUT',
		delete: 'DELETE',
		trace: 'TRACE',
		options: 'OPTIONS',
		merge: 'MERGE',
		patch: 'PATCH'
	})
);
