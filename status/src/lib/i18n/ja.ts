import type { Messages } from './en.ts';

export const ja: Messages = {
	banner: {
		operational: 'すべてのシステムが正常に稼働しています',
		degraded_performance: 'パフォーマンスが低下しています',
		partial_outage: '一部で障害が発生しています',
		major_outage: '大規模な障害が発生しています',
		under_maintenance: 'メンテナンス中'
	},
	state: {
		operational: '正常',
		degraded_performance: 'パフォーマンス低下',
		partial_outage: '一部障害',
		major_outage: '重大な障害',
		under_maintenance: 'メンテナンス中',
		unknown: 'データなし'
	},
	reportStatus: {
		investigating: '調査中',
		identified: '原因特定',
		monitoring: '経過観察中',
		resolved: '解決済み'
	},
	activeReports: '現在の障害',
	maintenance: 'メンテナンス',
	inProgress: '実施中',
	upcoming: '予定',
	history: '障害履歴',
	noHistory: '報告された障害はありません。',
	noHistoryInMonth: 'この月に報告された障害はありません。',
	historyPages: '障害履歴のページ',
	noSuchReport: 'このページにそのような報告はありません。',
	olderHistory: 'それ以前の障害',
	newestHistory: '最新の障害',
	components: 'コンポーネント',
	noComponents: 'コンポーネントはまだありません。',
	affects: '対象',
	viewReport: '詳細',
	back: 'ステータスに戻る',
	uptimeOf: '稼働率 {pct}',
	dayChecks: 'チェック {checks} 回、失敗 {failed} 回',
	noData: 'データなし',
	daysAgo: '{days}日前',
	today: '今日',
	website: 'ウェブサイト',
	contact: 'お問い合わせ',
	links: 'リンク',
	feeds: 'フィード',
	language: '言語',
	poweredBy: 'Powered by Upstate',
	gate: {
		passwordTitle: 'このページは保護されています',
		passwordLabel: 'パスワード',
		unlock: 'ステータスを表示',
		emailTitle: '勤務先のメールアドレスでアクセス',
		emailLabel: 'メールアドレス',
		sendLink: 'リンクを送信',
		linkSent: '受信トレイを確認してください。リンクの有効期限は15分です。',
		continue: 'ステータスページへ進む',
		ipDenied: 'このステータスページはお使いのネットワークからは利用できません。'
	}
};
