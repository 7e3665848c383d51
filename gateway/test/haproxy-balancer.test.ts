// README "Part 33": the gateway bench's HAProxy balancers (gateway/bench/haproxy.ts) are read through
// their stats socket. What the bench takes from `show stat` and what it writes in their config, on an
// answer captured from Debian's haproxy 2.6 (no haproxy needed to run this file; the bench itself runs
// the real one with BENCH_BALANCER=haproxy).
import { describe, expect, it } from 'vitest';
import { countsFromStats, haproxyConfig, parseShowStat } from '../bench/haproxy';

/** `show stat` with one connection open to gateway1 (maxconn 1) and one waiting in the queue; gateway2 disabled. */
const SHOW_STAT = [
  '# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status,weight,act,bck,chkfail,chkdown,lastchg,downtime,qlimit,pid,iid,sid,throttle,lbtot,tracked,type,rate,rate_lim,rate_max,check_status,check_code,check_duration,hrsp_1xx,hrsp_2xx,hrsp_3xx,hrsp_4xx,hrsp_5xx,hrsp_other,hanafail,req_rate,req_rate_max,req_tot,cli_abrt,srv_abrt,comp_in,comp_out,comp_byp,comp_rsp,lastsess,last_chk,last_agt,qtime,ctime,rtime,ttime,agent_status,agent_code,agent_duration,check_desc,agent_desc,check_rise,check_fall,check_health,agent_rise,agent_fall,agent_health,addr,cookie,mode,algo,conn_rate,conn_rate_max,conn_tot,intercepted,dcon,dses,wrew,connect,reuse,cache_lookups,cache_hits,srv_icur,src_ilim,qtime_max,ctime_max,rtime_max,ttime_max,eint,idle_conn_cur,safe_conn_cur,used_conn_cur,need_conn_est,uweight,agg_server_status,agg_server_check_status,agg_check_status,-,ssl_sess,ssl_reused_sess,ssl_failed_handshake,h2_headers_rcvd,h2_data_rcvd,h2_settings_rcvd,h2_rst_stream_rcvd,h2_goaway_rcvd,h2_detected_conn_protocol_errors,h2_detected_strm_protocol_errors,h2_rst_stream_resp,h2_goaway_resp,h2_open_connections,h2_backend_open_streams,h2_total_connections,h2_backend_total_streams,h1_open_connections,h1_open_streams,h1_total_connections,h1_total_streams,h1_bytes_in,h1_bytes_out,h1_spliced_bytes_in,h1_spliced_bytes_out,',
  'tabs,FRONTEND,,,2,2,7000,2,0,0,0,0,0,,,,,OPEN,,,,,,,,,1,2,0,,,,0,2,0,2,,,,,,,,,,,0,0,0,,,0,0,0,0,,,,,,,,,,,,,,,,,,,,,tcp,,2,2,2,,0,0,0,,,,,,,,,,,0,,,,,,,,,-,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,',
  'gateways,gateway1,0,0,1,1,1,1,0,0,,0,,0,0,0,0,UP,1,1,0,0,0,1,0,,1,3,1,,1,,2,1,,1,L4OK,,0,,,,,,,0,,,,0,0,,,,,1,,,0,0,0,0,,,,Layer4 check passed,,1,1,1,,,,127.0.0.1:28901,,tcp,,,,,,,,0,1,0,,,0,,0,0,0,0,0,0,0,0,1,1,,,,-,0,0,0,,,,,,,,,,,,,,,,,,,,,,',
  'gateways,gateway2,0,0,0,0,1,0,0,0,,0,,0,0,0,0,MAINT,1,1,0,0,0,1,1,,1,3,2,,0,,2,0,,0,,,,,,,,,,0,,,,0,0,,,,,-1,,,0,0,0,0,,,,,,,,,,,,127.0.0.1:1,,tcp,,,,,,,,0,0,0,,,0,,0,0,0,0,0,0,0,0,0,1,,,,-,0,0,0,,,,,,,,,,,,,,,,,,,,,,',
  'gateways,BACKEND,1,1,2,2,700,2,0,0,0,0,,0,0,0,0,UP,1,1,0,,0,1,0,,1,3,0,,1,,1,2,,2,,,,,,,,,,,,,,0,0,0,0,0,0,1,,,0,0,0,0,,,,,,,,,,,,,,tcp,leastconn,,,,,,,0,1,0,,,,,0,0,0,0,0,,,,,1,0,0,0,-,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,',
].join('\n');

describe('the bench balancer HAProxy', () => {
  it("when haproxy answers show stat, then the bench reads each gateway's open connections and the queue", () => {
    const rows = parseShowStat(SHOW_STAT);
    expect(rows.find((r) => r.svname === 'gateway1')?.addr).toBe('127.0.0.1:28901');
    expect(countsFromStats(rows, ['http://127.0.0.1:28901', null])).toEqual({
      open: { 'http://127.0.0.1:28901': 1 },
      queued: 1,
      queueTimeouts: 0,
      queueAbandoned: 0,
      refused: 0,
    });
  });

  it("when a queued connection times out, then it is counted from the backend's econ", () => {
    const timedOut = SHOW_STAT.replace(
      /^gateways,BACKEND,1,1,2,2,700,2,0,0,0,0,,0,/m,
      'gateways,BACKEND,0,1,1,2,700,2,0,0,0,0,,3,',
    );
    const counts = countsFromStats(parseShowStat(timedOut), ['http://127.0.0.1:28901', null]);
    expect(counts.queueTimeouts).toBe(3);
    expect(counts.queued).toBe(0);
  });

  it("when the answer is not show stat's, then reading it fails", () => {
    expect(() => parseShowStat('Unknown command.\n')).toThrow(/not an answer to show stat/);
  });

  it('when a gateway starts later, then its server is declared disabled until the bench adds it', () => {
    const config = haproxyConfig(
      {
        port: 28010,
        gateways: ['http://127.0.0.1:28000'],
        slots: 2,
        maxPerBackend: 3750,
        queueTimeoutMs: 15000,
        maxConnections: 7500,
      },
      '/tmp/x/stats.sock',
    );
    expect(config).toContain('mode tcp');
    expect(config).toContain('balance leastconn');
    expect(config).toContain('source 0.0.0.0 usesrc clientip');
    expect(config).toContain('timeout queue 15000');
    expect(config).toContain('stats socket /tmp/x/stats.sock level admin');
    expect(config).toContain('server gateway1 127.0.0.1:28000 maxconn 3750\n');
    expect(config).toContain('server gateway2 127.0.0.1:1 maxconn 3750 disabled');
  });
});
