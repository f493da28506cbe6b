#!/usr/bin/env python3
"""Builds site.xer, the XER patch writer's fixture: a P6 8.4 export
(../../../../../shared/data/real/percent-complete-8.4.xer, as P6 saved it)
grown into a small live programme with what a real one hangs off its
activities: a WBS tree, a second calendar, resources and assignments
(RSRC, TASKRSRC), activity codes (ACTVTYPE, ACTVCODE, TASKACTV), links
(TASKPRED), a memo (TASKMEMO) and user-defined fields of tasks and of the
project (UDFTYPE, UDFVALUE); names in Windows-1252 with CRLF line endings,
as P6 on Windows writes them.

Usage: python3 make_site.py SOURCE.xer > site.xer
"""
import sys

src = open(sys.argv[1], 'rb').read().decode('cp1252').split('\n')
out = []
tables = {}
cur = None
for line in src:
    line = line.rstrip('\r')
    if not line:
        continue
    f = line.split('\t')
    if f[0] == '%T':
        cur = f[1]
        tables[cur] = {'fields': None, 'rows': []}
    elif f[0] == '%F':
        tables[cur]['fields'] = f[1:]
    elif f[0] == '%R':
        tables[cur]['rows'].append(f[1:])
header = src[0].rstrip('\r')


def row(table, **kv):
    fields = tables[table]['fields']
    r = [''] * len(fields)
    for k, v in kv.items():
        r[fields.index(k)] = str(v)
    return r


def setv(table, r, **kv):
    fields = tables[table]['fields']
    for k, v in kv.items():
        r[fields.index(k)] = str(v)


cal = tables['CALENDAR']['rows'][0]
seven = list(cal)
day = '(0||0(s|07:00|f|17:00)())'
data = '(0||CalendarData()((0||DaysOfWeek()(' + ''.join('(0||%d()(%s))' % (d, day) for d in range(1, 8)) + '))(0||VIEW(ShowTotal|Y)())(0||Exceptions()())))'
setv('CALENDAR', seven, clndr_id=179, default_flag='N', clndr_name='Curing 7-day', day_hr_cnt=10, week_hr_cnt=70, clndr_data=data)
tables['CALENDAR']['rows'].append(seven)

root = tables['PROJWBS']['rows'][0]
for wid, parent, short, name, seq in [(26011, 26010, 'CIV', 'Civil – groundworks', 1), (26012, 26010, 'STR', 'Structure', 2), (26013, 26012, 'L1', 'Level 1', 1)]:
    r = list(root)
    setv('PROJWBS', r, wbs_id=wid, parent_wbs_id=parent, proj_node_flag='N', wbs_short_name=short, wbs_name=name, seq_num=seq, guid='')
    tables['PROJWBS']['rows'].append(r)

tasks = tables['TASK']['rows']
wbs = [26011, 26011, 26011, 26012, 26012, 26013, 26013, 26013, 26010, 26012, 26013, 26011]
for i, t in enumerate(tasks):
    setv('TASK', t, wbs_id=wbs[i])
setv('TASK', tasks[1], task_name='Pour ‘A’ – Level 2')
setv('TASK', tasks[5], clndr_id=179, task_name='Cure slab — 7 days')
setv('TASK', tasks[4], cstr_type='CS_MSOA', cstr_date='2015-03-02 08:00')
tid = [t[0] for t in tasks]

order = ['CURRTYPE', 'OBS', 'PROJECT', 'CALENDAR', 'PROJWBS', 'RSRC', 'ACTVTYPE', 'TASK', 'ACTVCODE', 'TASKPRED', 'TASKACTV', 'TASKMEMO', 'TASKRSRC', 'UDFTYPE', 'UDFVALUE']
tables['RSRC'] = {'fields': ['rsrc_id', 'parent_rsrc_id', 'clndr_id', 'role_id', 'shift_id', 'user_id', 'pobs_id', 'guid', 'rsrc_seq_num', 'email_addr', 'employee_code', 'office_phone', 'other_phone', 'rsrc_name', 'rsrc_short_name', 'rsrc_title_name', 'def_qty_per_hr', 'cost_qty_type', 'ot_factor', 'active_flag', 'auto_compute_act_flag', 'def_cost_qty_link_flag', 'ot_flag', 'curr_id', 'unit_id', 'rsrc_type', 'location_id', 'rsrc_notes'],
                  'rows': []}
for rid, name, short in [(9001, 'Concrete gang', 'CONC'), (9002, 'Crane — 50 t', 'CRANE')]:
    tables['RSRC']['rows'].append(row('RSRC', rsrc_id=rid, clndr_id=178, guid='', rsrc_seq_num=0, rsrc_name=name, rsrc_short_name=short, def_qty_per_hr=1, cost_qty_type='QT_Hour', ot_factor=0, active_flag='Y', auto_compute_act_flag='Y', def_cost_qty_link_flag='Y', ot_flag='N', curr_id=1, rsrc_type='RT_Labor'))
tables['ACTVTYPE'] = {'fields': ['actv_code_type_id', 'actv_short_len', 'seq_num', 'actv_code_type', 'proj_id', 'wbs_id', 'actv_code_type_scope'],
                      'rows': [['500', '10', '0', 'Phase', '4507', '', 'AS_Project'], ['510', '10', '1', 'Area', '4507', '', 'AS_Project']]}
tables['ACTVCODE'] = {'fields': ['actv_code_id', 'parent_actv_code_id', 'actv_code_type_id', 'actv_code_name', 'short_name', 'seq_num', 'color'],
                      'rows': [['501', '', '500', 'Design', 'DES', '0', ''], ['502', '', '500', 'Construction', 'CON', '1', ''],
                               ['511', '', '510', 'North – zone', 'N', '0', ''], ['512', '', '510', 'South', 'S', '1', '']]}
tables['TASKPRED'] = {'fields': ['task_pred_id', 'task_id', 'pred_task_id', 'proj_id', 'pred_proj_id', 'pred_type', 'lag_hr_cnt', 'float_path', 'aref', 'arls'], 'rows': []}
links = [(0, 1, 'PR_FS', 0), (1, 2, 'PR_FS', 0), (2, 3, 'PR_SS', 16), (3, 4, 'PR_FS', 0), (4, 5, 'PR_FS', 0), (5, 6, 'PR_FF', 20),
         (6, 7, 'PR_FS', 0), (7, 8, 'PR_FS', 0), (8, 9, 'PR_FS', -8), (9, 10, 'PR_FS', 0), (10, 11, 'PR_FS', 0), (0, 11, 'PR_SS', 0)]
for k, (a, b, typ, lag) in enumerate(links):
    tables['TASKPRED']['rows'].append([str(3000 + k), tid[b], tid[a], '4507', '4507', typ, str(lag), '', '', ''])
tables['TASKACTV'] = {'fields': ['task_id', 'actv_code_type_id', 'actv_code_id', 'proj_id'], 'rows': []}
for i in range(12):
    tables['TASKACTV']['rows'].append([tid[i], '500', '501' if i < 3 else '502', '4507'])
    if i % 3 == 0:
        tables['TASKACTV']['rows'].append([tid[i], '510', '511' if i < 6 else '512', '4507'])
tables['TASKMEMO'] = {'fields': ['memo_id', 'task_id', 'memo_type_id', 'proj_id', 'task_memo'],
                      'rows': [['7001', tid[3], '1', '4507', '<HTML><BODY>Check the crane – booking</BODY></HTML>'], ['7002', tid[7], '1', '4507', '<HTML><BODY>Hold point</BODY></HTML>']]}
tables['TASKRSRC'] = {'fields': ['taskrsrc_id', 'task_id', 'proj_id', 'cost_qty_link_flag', 'role_id', 'acct_id', 'rsrc_id', 'pobs_id', 'skill_level', 'remain_qty', 'target_qty', 'remain_qty_per_hr', 'target_lag_drtn_hr_cnt', 'target_qty_per_hr', 'act_ot_qty', 'act_reg_qty', 'relag_drtn_hr_cnt', 'ot_factor', 'cost_per_qty', 'target_cost', 'act_reg_cost', 'act_ot_cost', 'remain_cost', 'act_start_date', 'act_end_date', 'restart_date', 'reend_date', 'target_start_date', 'target_end_date', 'rem_late_start_date', 'rem_late_end_date', 'rollup_dates_flag', 'target_crv', 'remain_crv', 'actual_crv', 'ts_pend_act_end_flag', 'guid', 'rate_type', 'act_this_per_cost', 'act_this_per_qty', 'curv_id', 'rsrc_type', 'cost_per_qty_source_type', 'create_user', 'create_date', 'has_rsrchours', 'taskrsrc_sum_id'], 'rows': []}
for k, (i, rid) in enumerate([(3, 9001), (3, 9002), (4, 9001), (7, 9002), (9, 9001)]):
    tables['TASKRSRC']['rows'].append(row('TASKRSRC', taskrsrc_id=8000 + k, task_id=tid[i], proj_id=4507, cost_qty_link_flag='Y', rsrc_id=rid, remain_qty=80, target_qty=80, remain_qty_per_hr=1, target_qty_per_hr=1, act_ot_qty=0, act_reg_qty=0, ot_factor=0, cost_per_qty=50, target_cost=4000, act_reg_cost=0, act_ot_cost=0, remain_cost=4000, rollup_dates_flag='Y', ts_pend_act_end_flag='N', rate_type='RT_Price', act_this_per_cost=0, act_this_per_qty=0, rsrc_type='RT_Labor', cost_per_qty_source_type='QT_Rsrc', create_user='admin', create_date='2015-02-24 17:30', has_rsrchours='N'))
tables['UDFTYPE'] = {'fields': ['udf_type_id', 'table_name', 'udf_type_name', 'udf_type_label', 'logical_data_type', 'super_flag', 'indicator_expression', 'summary_indicator_expression', 'export_flag'],
                     'rows': [['60', 'TASK', 'user_field_60', 'Inspector', 'FT_TEXT', 'N', '', '', 'Y'], ['61', 'PROJECT', 'user_field_61', 'Client ref', 'FT_TEXT', 'N', '', '', 'Y']]}
tables['UDFVALUE'] = {'fields': ['udf_type_id', 'fk_id', 'proj_id', 'udf_date', 'udf_number', 'udf_text', 'udf_code_id'],
                      'rows': [['60', tid[3], '4507', '', '', 'J. Müller', ''], ['60', tid[4], '4507', '', '', 'A. Smith', ''], ['61', '4507', '4507', '', '', 'ACME-17', ''],
                               ['61', tid[3], '4507', '', '', 'a PROJECT value whose fk_id happens to equal a task_id', '']]}

lines = [header]
for t in order:
    lines.append('%T\t' + t)
    lines.append('%F\t' + '\t'.join(tables[t]['fields']))
    for r in tables[t]['rows']:
        lines.append('%R\t' + '\t'.join(r))
lines.append('%E')
sys.stdout.buffer.write(('\r\n'.join(lines) + '\r\n').encode('cp1252'))
