import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { MAGIC_COOKIE, MAGIC_COOKIE_KEY, readEnv } from './config.ts';
import { createProvider } from './provider.ts';

// The plugin process Terraform launches (go-plugin): check the cookie, serve tfplugin6 over
// mutual TLS on 127.0.0.1, print the handshake line, exit after GRPCController/Shutdown.
// `--debug` serves plaintext and prints the TF_REATTACH_PROVIDERS value instead (one process
// for many Terraform commands; Terraform never shuts it down).
const SOURCE = 'example.com/upstate/upstate';
const debug = process.argv.includes('--debug');
const env = readEnv();

if (!debug && env.cookie !== MAGIC_COOKIE) {
	process.stderr.write(
		`This is a Terraform provider plugin, not a command: Terraform starts it (${MAGIC_COOKIE_KEY} is not set).\n`
	);
	process.exit(1);
}
if (!debug && !env.protocolVersions.includes('6')) {
	process.stderr.write(
		`[ERROR] this provider speaks plugin protocol 6; Terraform offered ${env.protocolVersions.join(',')}: use Terraform 1.0 or later\n`
	);
	process.exit(1);
}
// Ctrl-C reaches the provider too; Terraform stops it with StopProvider/Shutdown instead.
process.on('SIGINT', () => {});

const protoDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'proto');
const def = protoLoader.loadSync(['tfplugin6.proto', 'grpc_controller.proto'], {
	includeDirs: [protoDir],
	keepCase: true,
	longs: Number,
	enums: String,
	defaults: false,
	oneofs: true
});
type Pkg = Record<string, Record<string, { service: grpc.ServiceDefinition }>>;
const loaded = grpc.loadPackageDefinition(def) as unknown as Pkg;

const handlers = createProvider({ apiToken: env.apiToken });
const impl: grpc.UntypedServiceImplementation = {};
for (const [name, fn] of Object.entries(handlers))
	impl[name] = (
		call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>,
		cb: grpc.sendUnaryData<unknown>
	) => {
		fn(call.request).then(
			(res) => cb(null, res),
			(err: unknown) => {
				process.stderr.write(
					`[ERROR] ${name}: ${err instanceof Error ? err.stack : String(err)}\n`
				);
				cb({ code: grpc.status.INTERNAL, details: String(err) });
			}
		);
	};

const server = new grpc.Server({
	'grpc.max_receive_message_length': 256 * 1024 * 1024,
	'grpc.max_send_message_length': 256 * 1024 * 1024
});
server.addService(loaded.tfplugin6.Provider.service, impl);
server.addService(loaded.plugin.GRPCController.service, {
	Shutdown: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => {
		cb(null, {});
		if (!debug) setTimeout(() => process.exit(0), 10);
	}
});

// A fresh self-signed server certificate (SAN localhost, which the client verifies).
function serverCert(): { key: string; cert: string } {
	const pem = execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-keyout',
			'-',
			'-out',
			'-',
			'-days',
			'2',
			'-subj',
			'/CN=localhost',
			'-addext',
			'subjectAltName=DNS:localhost',
			'-addext',
			'extendedKeyUsage=serverAuth,clientAuth'
		],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
	);
	const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(pem)?.[0];
	const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/.exec(pem)?.[0];
	if (!key || !cert) throw new Error('openssl did not print a key and a certificate');
	return { key, cert };
}

let creds = grpc.ServerCredentials.createInsecure();
let certField = '';
if (env.clientCert && !debug) {
	const { key, cert } = serverCert();
	creds = grpc.ServerCredentials.createSsl(
		Buffer.from(env.clientCert),
		[{ private_key: Buffer.from(key), cert_chain: Buffer.from(cert) }],
		true
	);
	// go-plugin reads the DER as base64 without padding (Go's RawStdEncoding).
	certField = new X509Certificate(cert).raw.toString('base64').replace(/=+$/, '');
}

server.bindAsync('127.0.0.1:0', creds, (err, port) => {
	if (err) {
		process.stderr.write(`[ERROR] cannot listen on 127.0.0.1: ${err.message}\n`);
		process.exit(1);
	}
	if (debug) {
		const reattach = {
			[SOURCE]: {
				Protocol: 'grpc',
				ProtocolVersion: 6,
				Pid: process.pid,
				Test: true,
				Addr: { Network: 'tcp', String: `127.0.0.1:${port}` }
			}
		};
		process.stdout.write(`TF_REATTACH_PROVIDERS=${JSON.stringify(reattach)}\n`);
	} else process.stdout.write(`1|6|tcp|127.0.0.1:${port}|grpc|${certField}\n`);
});
