import { run } from './program.ts';
import { connectTransport } from './transport.ts';

// The `upstate` command: real streams and environment, exit code from run().
let stdinText: Promise<string> | null = null;
const readStdin = () =>
	(stdinText ??= new Promise((resolve, reject) => {
		let text = '';
		process.stdin.setEncoding('utf8');
		process.stdin.on('data', (chunk) => (text += chunk));
		process.stdin.on('end', () => resolve(text));
		process.stdin.on('error', reject);
	}));

// `upstate monitors list | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
	if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
	throw err;
});

process.exitCode = await run(process.argv.slice(2), {
	env: process.env,
	streams: {
		stdout: (s) => void process.stdout.write(s),
		stderr: (s) => void process.stderr.write(s),
		stdin: readStdin,
		isTTY: !!process.stdout.isTTY && !!process.stdin.isTTY
	},
	connect: connectTransport
});
